-- Calendar: schedule items and the subscriptions through which they are shared.
--
-- Access model (enforced below by RLS, column grants and one trigger):
--   * the owner sees, changes, deletes and shares its items;
--   * an invited user sees the invitation (the subscription row) while it is pending;
--   * once accepted, the subscriber sees the item, and with permission
--       view   -> reads it,
--       edit   -> also changes its content,
--       invite -> also shares it with others (the top level, like "manage sharing");
--   * nobody else sees anything, anon included.

create table public.schedule_items (
  id uuid primary key default gen_random_uuid(),
  owner_id uuid not null default auth.uid() references auth.users (id) on delete cascade,
  title text not null check (char_length(title) between 1 and 200),
  description text check (char_length(description) <= 5000),
  start_at timestamptz not null,
  end_at timestamptz,
  timezone text not null default 'UTC' check (char_length(timezone) between 1 and 64),
  metadata jsonb not null default '{}'::jsonb check (jsonb_typeof(metadata) = 'object'),
  recurrence_rule text check (char_length(recurrence_rule) <= 500),
  source_type text not null default 'manual' check (source_type in ('manual', 'agent', 'import')),
  status text not null default 'active' check (status in ('active', 'archived', 'cancelled')),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint schedule_items_end_after_start check (end_at is null or end_at > start_at)
);

create index schedule_items_owner_start_idx on public.schedule_items (owner_id, start_at);

create trigger schedule_items_touch_updated_at
  before update on public.schedule_items
  for each row execute function private.touch_updated_at();

create table public.schedule_subscriptions (
  id uuid primary key default gen_random_uuid(),
  item_id uuid not null references public.schedule_items (id) on delete cascade,
  subscriber_id uuid not null references auth.users (id) on delete cascade,
  invited_by uuid not null default auth.uid() references auth.users (id) on delete cascade,
  permission text not null default 'view' check (permission in ('view', 'edit', 'invite')),
  notify_level text not null default 'all' check (notify_level in ('all', 'important', 'none')),
  status text not null default 'pending' check (status in ('pending', 'accepted', 'rejected')),
  responded_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (item_id, subscriber_id)
);

create index schedule_subscriptions_subscriber_idx
  on public.schedule_subscriptions (subscriber_id, status);

create trigger schedule_subscriptions_touch_updated_at
  before update on public.schedule_subscriptions
  for each row execute function private.touch_updated_at();

-- Policy helpers. They are SECURITY DEFINER so that a policy on one table can consult the
-- other without the two tables' policies recursing into each other. Each answers only about
-- the calling user (auth.uid()).

create or replace function private.permission_rank(permission text) returns integer
language sql immutable
as $$
  select case permission when 'view' then 1 when 'edit' then 2 when 'invite' then 3 else 0 end
$$;

create or replace function private.owned_schedule_item_ids() returns setof uuid
language sql stable security definer set search_path = ''
as $$
  select id from public.schedule_items where owner_id = auth.uid()
$$;

-- Items shared with the caller through an accepted subscription of at least `min_permission`.
create or replace function private.shared_schedule_item_ids(min_permission text) returns setof uuid
language sql stable security definer set search_path = ''
as $$
  select item_id
  from public.schedule_subscriptions
  where subscriber_id = auth.uid()
    and status = 'accepted'
    and private.permission_rank(permission) >= private.permission_rank(min_permission)
$$;

create or replace function private.schedule_item_owner(item uuid) returns uuid
language sql stable security definer set search_path = ''
as $$
  select owner_id from public.schedule_items where id = item
$$;

grant execute on all functions in schema private to authenticated, service_role;

-- schedule_items -------------------------------------------------------------------------

alter table public.schedule_items enable row level security;
revoke all on table public.schedule_items from anon;

-- Nobody rewrites an item's identity or owner; content columns are the only updatable ones.
revoke update on table public.schedule_items from authenticated;
grant update (title, description, start_at, end_at, timezone, metadata, recurrence_rule,
              source_type, status)
  on table public.schedule_items to authenticated;

create policy "owner or accepted subscriber reads the item"
  on public.schedule_items for select to authenticated
  using (
    owner_id = (select auth.uid())
    or id in (select private.shared_schedule_item_ids('view'))
  );

create policy "a user creates items for itself"
  on public.schedule_items for insert to authenticated
  with check (owner_id = (select auth.uid()));

create policy "owner or subscriber with edit changes the item"
  on public.schedule_items for update to authenticated
  using (
    owner_id = (select auth.uid())
    or id in (select private.shared_schedule_item_ids('edit'))
  )
  with check (
    owner_id = (select auth.uid())
    or id in (select private.shared_schedule_item_ids('edit'))
  );

create policy "only the owner deletes the item"
  on public.schedule_items for delete to authenticated
  using (owner_id = (select auth.uid()));

-- schedule_subscriptions -----------------------------------------------------------------

alter table public.schedule_subscriptions enable row level security;
revoke all on table public.schedule_subscriptions from anon;

create policy "subscriber, inviter and item owner see the subscription"
  on public.schedule_subscriptions for select to authenticated
  using (
    subscriber_id = (select auth.uid())
    or invited_by = (select auth.uid())
    or item_id in (select private.owned_schedule_item_ids())
  );

-- Sharing: the owner, or an accepted subscriber with invite permission, invites someone
-- else. The invitation always starts pending and names the caller as the inviter.
create policy "owner or subscriber with invite shares the item"
  on public.schedule_subscriptions for insert to authenticated
  with check (
    invited_by = (select auth.uid())
    and status = 'pending'
    and subscriber_id <> (select auth.uid())
    and subscriber_id <> private.schedule_item_owner(item_id)
    and (
      item_id in (select private.owned_schedule_item_ids())
      or item_id in (select private.shared_schedule_item_ids('invite'))
    )
  );

-- Who may touch a subscription row at all; what each may change is in the trigger below.
create policy "subscriber responds, item owner manages"
  on public.schedule_subscriptions for update to authenticated
  using (
    subscriber_id = (select auth.uid())
    or item_id in (select private.owned_schedule_item_ids())
  )
  with check (
    subscriber_id = (select auth.uid())
    or item_id in (select private.owned_schedule_item_ids())
  );

create policy "subscriber leaves, inviter or item owner revokes"
  on public.schedule_subscriptions for delete to authenticated
  using (
    subscriber_id = (select auth.uid())
    or invited_by = (select auth.uid())
    or item_id in (select private.owned_schedule_item_ids())
  );

-- Row-level rules RLS cannot express because they compare the old row with the new one:
--   * item, subscriber and inviter never change;
--   * only the subscriber answers (status, notify_level): pending -> accepted | rejected,
--     accepted -> rejected (leaving);
--   * only the item owner changes the granted permission.
-- Calls without a user (service_role, migrations) are not restricted.
create or replace function private.guard_subscription_update() returns trigger
language plpgsql
as $$
declare
  caller uuid := auth.uid();
begin
  if caller is null then
    return new;
  end if;

  if new.item_id <> old.item_id
     or new.subscriber_id <> old.subscriber_id
     or new.invited_by <> old.invited_by
     or new.created_at <> old.created_at then
    raise exception 'item_id, subscriber_id, invited_by and created_at cannot change'
      using errcode = '42501';
  end if;

  if new.status <> old.status then
    if caller <> old.subscriber_id then
      raise exception 'only the invited user can answer an invitation' using errcode = '42501';
    end if;
    if not ((old.status = 'pending' and new.status in ('accepted', 'rejected'))
            or (old.status = 'accepted' and new.status = 'rejected')) then
      raise exception 'invitation cannot go from % to %', old.status, new.status
        using errcode = '22023';
    end if;
    new.responded_at := now();
  end if;

  if new.notify_level <> old.notify_level and caller <> old.subscriber_id then
    raise exception 'only the subscriber sets its notify level' using errcode = '42501';
  end if;

  if new.permission <> old.permission
     and caller is distinct from private.schedule_item_owner(old.item_id) then
    raise exception 'only the item owner changes a granted permission' using errcode = '42501';
  end if;

  return new;
end;
$$;

create trigger schedule_subscriptions_guard_update
  before update on public.schedule_subscriptions
  for each row execute function private.guard_subscription_update();
