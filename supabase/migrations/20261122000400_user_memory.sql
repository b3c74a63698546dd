-- Long-lived memory about the user, read and written by memory.read / memory.update.
-- One document per (user, kind):
--   user_memory  -> UserMemoryContent   (preferences, facts the user asked to remember)
--   work_profile -> WorkProfileContent  (role, team, working hours)
-- The document shapes are validated by the application; the table guarantees ownership,
-- an object body, a bounded size and a version that increases on every write.

create table public.user_memory (
  owner_id uuid not null default auth.uid() references auth.users (id) on delete cascade,
  kind text not null check (kind in ('user_memory', 'work_profile')),
  content jsonb not null default '{}'::jsonb
    check (jsonb_typeof(content) = 'object' and pg_column_size(content) <= 65536),
  version integer not null default 1,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  primary key (owner_id, kind)
);

create or replace function private.bump_memory_version() returns trigger
language plpgsql
as $$
begin
  new.version := old.version + 1;
  new.updated_at := now();
  return new;
end;
$$;

create trigger user_memory_bump_version
  before update on public.user_memory
  for each row execute function private.bump_memory_version();

alter table public.user_memory enable row level security;
revoke all on table public.user_memory from anon;

create policy "owner reads its memory"
  on public.user_memory for select to authenticated
  using (owner_id = (select auth.uid()));

create policy "owner writes its memory"
  on public.user_memory for insert to authenticated
  with check (owner_id = (select auth.uid()));

create policy "owner updates its memory"
  on public.user_memory for update to authenticated
  using (owner_id = (select auth.uid()))
  with check (owner_id = (select auth.uid()));

create policy "owner deletes its memory"
  on public.user_memory for delete to authenticated
  using (owner_id = (select auth.uid()));
