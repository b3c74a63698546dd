-- A user's pending invitations: who invited them, to what, when.
--
-- A pending invitee cannot read the invited item (decision D5: the item becomes visible only
-- once accepted), so "accept Alice's invite" had nothing to go on but a pasted id. This
-- SECURITY DEFINER function is the narrow preview D5 left room for: for the calling user only
-- (auth.uid(), never an argument), each pending invitation with the event's title, times, zone
-- and status, the permission offered, when it was sent, and the inviter: the name the caller
-- gave that person in its own contacts, if any, and the inviter's e-mail and phone (as the
-- organizer of an invitation is shown in any calendar). Not the description, metadata or
-- anyone else's subscription: those stay behind acceptance.
create function public.my_pending_invitations(p_limit integer default 20)
returns table (
  event_id uuid,
  title text,
  start_at timestamptz,
  end_at timestamptz,
  timezone text,
  event_status text,
  recurrence_rule text,
  permission text,
  invited_at timestamptz,
  inviter_id uuid,
  inviter_name text,
  inviter_email text,
  inviter_phone text
)
language sql stable security definer set search_path = ''
as $$
  select
    item.id,
    item.title,
    item.start_at,
    item.end_at,
    item.timezone,
    item.status,
    item.recurrence_rule,
    invitation.permission,
    invitation.created_at,
    invitation.invited_by,
    (select contact.display_name
       from public.contacts contact
      where contact.owner_id = auth.uid() and contact.linked_user_id = invitation.invited_by
      order by contact.created_at
      limit 1),
    inviter.email::text,
    -- Supabase Auth stores phones without the leading "+".
    case when inviter.phone is null or inviter.phone = '' then null else '+' || ltrim(inviter.phone, '+') end
  from public.schedule_subscriptions invitation
  join public.schedule_items item on item.id = invitation.item_id
  left join auth.users inviter on inviter.id = invitation.invited_by
  where invitation.subscriber_id = auth.uid()
    and invitation.status = 'pending'
  order by item.start_at, invitation.created_at
  -- At most 51: the caller asks for up to 50 and learns from the 51st that there are more.
  limit least(greatest(coalesce(p_limit, 20), 1), 51)
$$;

revoke execute on function public.my_pending_invitations(integer) from public, anon;
grant execute on function public.my_pending_invitations(integer) to authenticated;
