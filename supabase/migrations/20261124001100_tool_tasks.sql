-- Tasks: the long work the coding agent does for the Tool Agent (build a tool from a description,
-- deploy one from a repository archive, repair one whose health checks fail). A task is
-- submitted at once and runs in the background as a Workflow; this table is what
-- GET /tasks/{id} reads, and task_log is the coding agent's step-by-step log.

create type tool_agent.task_kind as enum ('build_tool', 'github_deploy', 'repair_tool');
create type tool_agent.task_status as enum ('pending', 'running', 'completed', 'failed');

create table tool_agent.tasks (
  task_id text primary key check (task_id ~ '^(create|deploy|repair)_[0-9a-f]{12}$'),
  kind tool_agent.task_kind not null,
  status tool_agent.task_status not null default 'pending',
  description text not null check (length(description) between 1 and 4000),
  -- The task book: { type, tool_name | repo_url | tool_id, description, ... }, as submitted.
  task_spec jsonb not null check (jsonb_typeof(task_spec) = 'object'),
  -- The tool it builds or repairs, once known.
  tool_id text check (tool_id ~ '^[a-z0-9][a-z0-9_-]{0,63}$'),
  -- One line a person reads: what is happening now.
  progress text not null default 'waiting to start' check (length(progress) <= 500),
  model text,
  steps integer not null default 0 check (steps >= 0),
  -- How often the watchdog started the task again after it stopped making progress; its
  -- Workflow instance is named task_id, then task_id-r1, task_id-r2...
  attempts integer not null default 0 check (attempts >= 0),
  cost_usd numeric(12, 6) not null default 0 check (cost_usd >= 0),
  result jsonb,
  error text check (length(error) <= 4000),
  requested_by text not null,
  created_at timestamptz not null default now(),
  started_at timestamptz,
  finished_at timestamptz,
  updated_at timestamptz not null default now()
);
create trigger tasks_touch before update on tool_agent.tasks
  for each row execute function private.touch_updated_at();
create index tasks_created on tool_agent.tasks (created_at desc);
-- The watchdog's question: which open tasks have not moved for a while.
create index tasks_open_updated on tool_agent.tasks (updated_at) where status in ('pending', 'running');
-- How many tasks a caller has open (a caller may have only a few at once).
create index tasks_open_by_caller on tool_agent.tasks (requested_by) where status in ('pending', 'running');
-- A failing tool gets one repair at a time, however many health alerts arrive meanwhile.
create unique index tasks_one_open_repair on tool_agent.tasks (tool_id)
  where kind = 'repair_tool' and status in ('pending', 'running');

-- The coding agent's log, like a CodingAgent log: each tool it used and with what, its text,
-- how the run ended and what it cost. Appended only.
create table tool_agent.task_log (
  entry_id bigint generated always as identity primary key,
  task_id text not null references tool_agent.tasks (task_id) on delete cascade,
  kind text not null check (kind in ('TOOL_USE', 'TOOL_RESULT', 'TEXT', 'MESSAGE', 'DONE', 'COST', 'ERROR')),
  detail jsonb not null default '{}' check (jsonb_typeof(detail) = 'object'),
  at timestamptz not null default now()
);
create index task_log_task on tool_agent.task_log (task_id, entry_id);

alter table tool_agent.tasks enable row level security;
create policy tool_agent_service_only on tool_agent.tasks for all to tool_agent_service using (true) with check (true);
grant select, insert, update on tool_agent.tasks to tool_agent_service;

alter table tool_agent.task_log enable row level security;
create policy tool_agent_service_only on tool_agent.task_log for all to tool_agent_service using (true) with check (true);
grant select, insert on tool_agent.task_log to tool_agent_service;
grant usage on all sequences in schema tool_agent to tool_agent_service;

-- A fourth scope: `create` lets an external agent ask for a new tool (POST /create_tool, or
-- /agent/chat starting one) without being an admin.
alter table tool_agent.api_keys drop constraint api_keys_scopes_check;
alter table tool_agent.api_keys add constraint api_keys_scopes_check
  check (scopes <@ array['search', 'invoke', 'admin', 'create'] and cardinality(scopes) > 0);
