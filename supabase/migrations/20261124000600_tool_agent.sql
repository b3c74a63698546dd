-- The Tool Agent's data: which tools exist, where each one runs, what state it is in, who may
-- call it and what it has cost. Spec 004 keeps these in JSON files (registry.json,
-- sources.json, containers.json); here they are tables in their own schema.
--
-- Who can reach them: only the database role `tool_agent_service`. The Tool Agent Worker mints
-- a short-lived JWT with that role (its controlled credential, like the chat agent's per-user
-- one) and talks to PostgREST with it. `anon` and `authenticated` (app users) get nothing in
-- this schema: no usage, no grants, and RLS is on in case someone grants them later.

create schema if not exists extensions;
create extension if not exists pg_trgm with schema extensions;

do $$
begin
  if not exists (select 1 from pg_roles where rolname = 'tool_agent_service') then
    create role tool_agent_service nologin noinherit;
  end if;
end
$$;
-- PostgREST logs in as authenticator and switches to the role a verified token names.
grant tool_agent_service to authenticator;

create schema tool_agent;
revoke all on schema tool_agent from public;
grant usage on schema tool_agent to tool_agent_service;
grant usage on schema extensions to tool_agent_service;

create type tool_agent.tool_status as enum ('active', 'inactive', 'staging', 'building');
create type tool_agent.source_type as enum ('local', 'docker', 'remote');
create type tool_agent.process_state as enum ('stopped', 'starting', 'running', 'error');

-- The names of a JSON Schema's top-level properties, space separated: what search reads of a
-- tool's parameters. Immutable (it reads only its argument) so a generated column can use it.
create function tool_agent.param_names(input_schema jsonb) returns text
language sql immutable
as $$
  select coalesce(string_agg(key, ' ' order by key), '')
  from jsonb_object_keys(
    case when jsonb_typeof(input_schema -> 'properties') = 'object' then input_schema -> 'properties' else '{}'::jsonb end
  ) as key
$$;

-- ToolMeta, plus what the platform needs: a declared cost per call (for the budget) and a
-- version that changes whenever the code behind a tool changes (the sandbox
-- caches isolates by tool id and version).
create table tool_agent.tools (
  tool_id text primary key check (tool_id ~ '^[a-z0-9][a-z0-9_-]{0,63}$'),
  name text not null check (length(name) between 1 and 200),
  category text not null default 'general' check (length(category) between 1 and 64),
  description text not null default '' check (length(description) <= 4000),
  input_schema jsonb not null default '{"type": "object"}' check (jsonb_typeof(input_schema) = 'object'),
  output_schema jsonb not null default '{}' check (jsonb_typeof(output_schema) = 'object'),
  stream_support boolean not null default false,
  status tool_agent.tool_status not null default 'active',
  cost_per_call_usd numeric(12, 6) not null default 0 check (cost_per_call_usd >= 0),
  version integer not null default 1 check (version >= 1),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  -- What search matches (migration 20261124000700): substrings of all the text (any language),
  -- trigram similarity of the short names (typos), full-text over the vector (words, weighted:
  -- id and name first).
  search_text text generated always as (
    lower(replace(tool_id, '_', ' ') || ' ' || name || ' ' || category || ' ' || description || ' ' || tool_agent.param_names(input_schema))
  ) stored,
  search_names text generated always as (
    lower(replace(tool_id, '_', ' ') || ' ' || name || ' ' || replace(tool_agent.param_names(input_schema), '_', ' '))
  ) stored,
  -- Words two ways: as written ('simple': ids, names, parameter names, any language) and
  -- stemmed ('english': "transcribes" meets "transcribe").
  search_vector tsvector generated always as (
    setweight(to_tsvector('simple'::regconfig, replace(tool_id, '_', ' ') || ' ' || name), 'A')
    || setweight(to_tsvector('english'::regconfig, name), 'A')
    || setweight(to_tsvector('simple'::regconfig, category || ' ' || replace(tool_agent.param_names(input_schema), '_', ' ')), 'B')
    || setweight(to_tsvector('english'::regconfig, description), 'C')
  ) stored
);
create index tools_search_vector on tool_agent.tools using gin (search_vector);
create index tools_search_text on tool_agent.tools using gin (search_text extensions.gin_trgm_ops);
create index tools_search_names on tool_agent.tools using gin (search_names extensions.gin_trgm_ops);
create index tools_lower_name on tool_agent.tools (lower(name));
create index tools_category on tool_agent.tools (category);
create trigger tools_touch before update on tool_agent.tools
  for each row execute function private.touch_updated_at();

-- ToolSource: the ordered places a tool can run; position 0 is tried first and
-- the next ones are the fallbacks. The remote API key is stored encrypted (AES-GCM, the key is
-- a Worker secret), never in clear.
create table tool_agent.tool_sources (
  tool_id text not null references tool_agent.tools (tool_id) on delete cascade,
  position smallint not null check (position between 0 and 15),
  type tool_agent.source_type not null,
  endpoint_path text not null default '/' check (endpoint_path ~ '^/'),
  http_method text not null default 'POST' check (http_method in ('GET', 'POST', 'PUT', 'PATCH', 'DELETE')),
  timeout_ms integer check (timeout_ms between 100 and 300000),
  -- local: where the module is kept (an object-storage prefix) and whether it may use the network
  host_dir text check (length(host_dir) <= 300),
  allow_network boolean not null default false,
  -- docker
  image text check (length(image) <= 300),
  container_id text,
  internal_port integer check (internal_port between 0 and 65535),
  -- remote
  remote_url text check (remote_url ~ '^https?://'),
  remote_path text check (remote_path ~ '^/'),
  remote_api_key_encrypted text,
  -- what answers show instead of the key, e.g. `sk-***` (functions/tool-agent/secrets/secret-box.ts)
  remote_api_key_masked text check (remote_api_key_masked ~ '^([A-Za-z]{1,3}[-_])?\*\*\*$'),
  primary key (tool_id, position),
  constraint source_has_its_fields check (
    case type
      when 'local' then host_dir is not null
      when 'docker' then image is not null and internal_port is not null
      when 'remote' then remote_url is not null
    end
  )
);

-- ToolRoute: the runtime state of each tool, one row per tool.
create table tool_agent.tool_routes (
  tool_id text primary key references tool_agent.tools (tool_id) on delete cascade,
  active_source smallint not null default 0,
  state tool_agent.process_state not null default 'stopped',
  started_at timestamptz,
  last_error text check (length(last_error) <= 2000),
  last_used_at timestamptz,
  last_checked_at timestamptz,
  last_healthy_at timestamptz,
  consecutive_failures integer not null default 0,
  updated_at timestamptz not null default now()
);
create trigger tool_routes_touch before update on tool_agent.tool_routes
  for each row execute function private.touch_updated_at();

-- ContainerInfo. Rows outlive their tool: a destroyed container stays as history.
create table tool_agent.containers (
  container_id text primary key,
  tool_id text not null,
  image text not null,
  port_mapping jsonb not null default '{}',
  volumes jsonb not null default '{}',
  mem_limit text not null default '1g',
  nano_cpus bigint not null default 1000000000,
  use_gpu boolean not null default false,
  gpu_count integer not null default -1,
  status text not null default 'running' check (status in ('running', 'destroyed')),
  created_at timestamptz not null default now(),
  last_accessed timestamptz,
  destroyed_at timestamptz
);
create index containers_tool on tool_agent.containers (tool_id) where status = 'running';

-- API keys of external callers. Only a SHA-256 of the key is kept; the key is shown once.
create table tool_agent.api_keys (
  key_id uuid primary key default gen_random_uuid(),
  name text not null check (length(name) between 1 and 100),
  key_hash text not null unique check (key_hash ~ '^[0-9a-f]{64}$'),
  -- The first characters of the key, so a person can tell keys apart in a list.
  key_prefix text not null check (length(key_prefix) <= 12),
  scopes text[] not null check (scopes <@ array['search', 'invoke', 'admin'] and cardinality(scopes) > 0),
  created_at timestamptz not null default now(),
  revoked_at timestamptz,
  last_used_at timestamptz
);

-- Calls that cost more than the approval threshold wait here for an admin's decision.
create table tool_agent.approvals (
  approval_id uuid primary key default gen_random_uuid(),
  tool_id text not null references tool_agent.tools (tool_id) on delete cascade,
  params jsonb not null,
  cost_usd numeric(12, 6) not null,
  caller text not null,
  -- approving runs the call at once, so an approval goes from pending to executed or refused
  status text not null default 'pending' check (status in ('pending', 'refused', 'executed')),
  requested_at timestamptz not null default now(),
  decided_at timestamptz,
  decided_by text
);

-- The cost ledger: one row per paid call. Rows are never updated.
create table tool_agent.cost_ledger (
  entry_id bigint generated always as identity primary key,
  tool_id text not null,
  caller text not null,
  cost_usd numeric(12, 6) not null check (cost_usd >= 0),
  approval_id uuid references tool_agent.approvals (approval_id) on delete set null,
  created_at timestamptz not null default now()
);
create index cost_ledger_created on tool_agent.cost_ledger (created_at);

-- Only the Tool Agent's role reaches these tables. RLS is on everywhere, with one policy each
-- that names that role, so a grant to anyone else by mistake still shows them nothing.
do $$
declare
  t text;
begin
  foreach t in array array['tools', 'tool_sources', 'tool_routes', 'containers', 'api_keys', 'approvals', 'cost_ledger'] loop
    execute format('alter table tool_agent.%I enable row level security', t);
    execute format('create policy tool_agent_service_only on tool_agent.%I for all to tool_agent_service using (true) with check (true)', t);
    execute format('grant select, insert, update, delete on tool_agent.%I to tool_agent_service', t);
  end loop;
end
$$;
-- The ledger is append-only even for the service.
revoke update, delete on tool_agent.cost_ledger from tool_agent_service;
grant usage on all sequences in schema tool_agent to tool_agent_service;
