-- calendar.share invites by phone or e-mail. The inviter cannot read auth.users, so this
-- narrow function answers one question: which account, if any, has exactly this phone or
-- e-mail? It returns an id and nothing else, only to signed-in users, one lookup per call.
-- (Whether a phone number is registered is thereby discoverable, as in any contact-based
-- invitation flow.)
create or replace function public.find_invitee(p_phone text default null, p_email text default null)
returns uuid
language sql stable security definer set search_path = ''
as $$
  select id
  from auth.users
  -- Supabase Auth stores phones without the leading "+"; accept either form.
  where (p_phone is not null and ltrim(phone, '+') = ltrim(p_phone, '+'))
     or (p_email is not null and lower(email) = lower(p_email))
  order by (p_phone is not null and ltrim(phone, '+') = ltrim(p_phone, '+')) desc
  limit 1
$$;

revoke execute on function public.find_invitee(text, text) from public, anon;
grant execute on function public.find_invitee(text, text) to authenticated;
