-- The agent's conversation records: threads, the runs inside them, and their messages.
--
-- Thread and run ids come from the app (AG-UI threadId / runId are free-form strings), so
-- they are keyed together with owner_id: two users may pick the same id without colliding
-- or learning of each other, and the composite foreign keys make it impossible to attach a
-- run or message to another user's thread.

create table public.threads (
  owner_id uuid not null default auth.uid() references auth.users (id) on delete cascade,
  id text not null check (char_length(id) between 1 and 128),
  title text check (char_length(title) <= 200),
  metadata jsonb not null default '{}'::jsonb check (jsonb_typeof(metadata) = 'object'),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  primary key (owner_id, id)
);

create index threads_owner_recent_idx on public.threads (owner_id, updated_at desc);

create trigger threads_touch_updated_at
  before update on public.threads
  for each row execute function private.touch_updated_at();

create table public.runs (
  owner_id uuid not null default auth.uid(),
  id text not null check (char_length(id) between 1 and 128),
  thread_id text not null,
  status text not null default 'running'
    check (status in ('running', 'succeeded', 'failed', 'cancelled')),
  error_code text check (char_length(error_code) <= 64),
  step_count integer not null default 0 check (step_count >= 0),
  models jsonb not null default '{}'::jsonb,        -- model name per stage
  usage jsonb not null default '{}'::jsonb,         -- token usage per stage
  stage_timings jsonb not null default '{}'::jsonb, -- milliseconds per stage
  started_at timestamptz not null default now(),
  finished_at timestamptz,
  primary key (owner_id, id),
  foreign key (owner_id, thread_id) references public.threads (owner_id, id) on delete cascade
);

create index runs_thread_idx on public.runs (owner_id, thread_id, started_at);

create table public.messages (
  id uuid primary key default gen_random_uuid(),
  owner_id uuid not null default auth.uid(),
  thread_id text not null,
  run_id text,
  -- Insertion order; history pages by it.
  seq bigint generated always as identity,
  role text not null check (role in ('user', 'assistant', 'tool', 'system')),
  -- Always text: the human-readable body (for tool messages, the short summary).
  -- Structured data belongs in metadata.
  content text not null default '',
  metadata jsonb not null default '{}'::jsonb check (jsonb_typeof(metadata) = 'object'),
  created_at timestamptz not null default now(),
  foreign key (owner_id, thread_id) references public.threads (owner_id, id) on delete cascade,
  foreign key (owner_id, run_id) references public.runs (owner_id, id) on delete cascade
);

create index messages_thread_seq_idx on public.messages (owner_id, thread_id, seq);

-- Every table: the owner and nobody else, for every operation.
alter table public.threads enable row level security;
alter table public.runs enable row level security;
alter table public.messages enable row level security;
revoke all on table public.threads, public.runs, public.messages from anon;

create policy "owner reads its threads" on public.threads
  for select to authenticated using (owner_id = (select auth.uid()));
create policy "owner starts threads" on public.threads
  for insert to authenticated with check (owner_id = (select auth.uid()));
create policy "owner updates its threads" on public.threads
  for update to authenticated
  using (owner_id = (select auth.uid())) with check (owner_id = (select auth.uid()));
create policy "owner deletes its threads" on public.threads
  for delete to authenticated using (owner_id = (select auth.uid()));

create policy "owner reads its runs" on public.runs
  for select to authenticated using (owner_id = (select auth.uid()));
create policy "owner records runs" on public.runs
  for insert to authenticated with check (owner_id = (select auth.uid()));
create policy "owner updates its runs" on public.runs
  for update to authenticated
  using (owner_id = (select auth.uid())) with check (owner_id = (select auth.uid()));
create policy "owner deletes its runs" on public.runs
  for delete to authenticated using (owner_id = (select auth.uid()));

create policy "owner reads its messages" on public.messages
  for select to authenticated using (owner_id = (select auth.uid()));
create policy "owner records messages" on public.messages
  for insert to authenticated with check (owner_id = (select auth.uid()));
create policy "owner updates its messages" on public.messages
  for update to authenticated
  using (owner_id = (select auth.uid())) with check (owner_id = (select auth.uid()));
create policy "owner deletes its messages" on public.messages
  for delete to authenticated using (owner_id = (select auth.uid()));
