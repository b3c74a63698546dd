-- Contacts: the people a user may look up (contacts.read) and invite to an event by phone or
-- email (calendar.share). Each user sees and manages only its own address book.

create table public.contacts (
  id uuid primary key default gen_random_uuid(),
  owner_id uuid not null default auth.uid() references auth.users (id) on delete cascade,
  display_name text not null check (char_length(display_name) between 1 and 200),
  -- E.164, e.g. +8613812345678: the form share invitations match on.
  phone text check (phone ~ '^\+[1-9][0-9]{6,14}$'),
  email text check (char_length(email) <= 320 and email ~ '^[^@\s]+@[^@\s]+$'),
  -- The app user behind this contact, when known; invitations go to this account.
  linked_user_id uuid references auth.users (id) on delete set null,
  notes text check (char_length(notes) <= 2000),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

create index contacts_owner_name_idx on public.contacts (owner_id, lower(display_name));
create unique index contacts_owner_phone_key on public.contacts (owner_id, phone) where phone is not null;
create unique index contacts_owner_email_key on public.contacts (owner_id, lower(email)) where email is not null;

create trigger contacts_touch_updated_at
  before update on public.contacts
  for each row execute function private.touch_updated_at();

alter table public.contacts enable row level security;
revoke all on table public.contacts from anon;

create policy "owner reads its contacts"
  on public.contacts for select to authenticated
  using (owner_id = (select auth.uid()));

create policy "owner adds contacts"
  on public.contacts for insert to authenticated
  with check (owner_id = (select auth.uid()));

create policy "owner edits its contacts"
  on public.contacts for update to authenticated
  using (owner_id = (select auth.uid()))
  with check (owner_id = (select auth.uid()));

create policy "owner deletes its contacts"
  on public.contacts for delete to authenticated
  using (owner_id = (select auth.uid()));
