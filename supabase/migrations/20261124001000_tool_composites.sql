-- Composite tools: a need that several registered tools meet together, in steps (the ComfyUI
-- example: launch an environment, run a workflow in it, stop it). They are data, not code, so
-- an admin adds one with POST /composites. /agent/chat offers a composite when the request
-- names one of its keywords and every base tool is registered and active.
create table tool_agent.composites (
  composite_id text primary key check (composite_id ~ '^[a-z0-9][a-z0-9_-]{0,63}$'),
  name text not null check (length(name) between 1 and 200),
  description text not null default '' check (length(description) <= 4000),
  -- lower-case words or phrases, any language, that mean a request is about this composite
  keywords text[] not null check (cardinality(keywords) between 1 and 50),
  base_tools text[] not null check (cardinality(base_tools) between 1 and 20),
  -- [{ "step": 1, "action": "...", "tool": "<base tool>", "params": {...}, "returns": "..." }, ...]
  steps jsonb not null check (jsonb_typeof(steps) = 'array'),
  example jsonb not null default '{}' check (jsonb_typeof(example) = 'object'),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create trigger composites_touch before update on tool_agent.composites
  for each row execute function private.touch_updated_at();

alter table tool_agent.composites enable row level security;
create policy tool_agent_service_only on tool_agent.composites for all to tool_agent_service using (true) with check (true);
grant select, insert, update, delete on tool_agent.composites to tool_agent_service;

-- Which active tools contain which of `terms` (words, or two-character pieces of Chinese), for
-- /agent/chat's fuzzy match of a whole sentence: tools matching more terms first, and the terms
-- each matched, so the answer can say why.
create function tool_agent.match_terms(terms text[], max_results integer default 5)
returns table (tool_id text, matched text[])
language sql stable
set search_path = extensions, pg_catalog
as $$
  select t.tool_id, array_agg(term order by term) as matched
  from tool_agent.tools t
  cross join unnest(terms) as term
  where t.status = 'active'
    and term <> ''
    and t.search_text like '%' || replace(replace(replace(lower(term), '\', '\\'), '%', '\%'), '_', '\_') || '%'
  group by t.tool_id
  order by count(*) desc, t.tool_id
  limit least(greatest(coalesce(max_results, 5), 1), 20)
$$;

revoke all on function tool_agent.match_terms(text[], integer) from public;
grant execute on function tool_agent.match_terms(text[], integer) to tool_agent_service;
