-- Registering a tool writes three tables (the tool, its sources, its runtime state); this does
-- it in one transaction so a reader never sees a tool without its sources. Registering an
-- existing tool_id replaces it: a new version, new sources, and its state back to `stopped`,
-- since the code behind it changed.
--
-- `expected_version` is the version the caller stored the tool's code under (the current one
-- plus one): two registrations of the same tool at once cannot both win.
create function tool_agent.register_tool(tool jsonb, sources jsonb, expected_version integer)
returns integer
language plpgsql
set search_path = pg_catalog
as $$
declare
  current_version integer;
  id text := tool ->> 'tool_id';
begin
  -- One registration of a tool at a time, also for a tool that has no row yet to lock.
  perform pg_advisory_xact_lock(hashtext('tool_agent.register_tool'), hashtext(id));
  select t.version into current_version from tool_agent.tools t where t.tool_id = id;
  if coalesce(current_version, 0) + 1 <> expected_version then
    -- PT409: PostgREST answers HTTP 409 (a serialization failure, 40001, it would retry).
    raise exception 'tool % was registered again meanwhile (now version %)', id, current_version
      using errcode = 'PT409';
  end if;

  insert into tool_agent.tools as t (tool_id, name, category, description, input_schema, output_schema, stream_support, status, cost_per_call_usd, version)
  values (
    id,
    tool ->> 'name',
    coalesce(tool ->> 'category', 'general'),
    coalesce(tool ->> 'description', ''),
    coalesce(tool -> 'input_schema', '{"type": "object"}'::jsonb),
    coalesce(tool -> 'output_schema', '{}'::jsonb),
    coalesce((tool ->> 'stream_support')::boolean, false),
    coalesce((tool ->> 'status')::tool_agent.tool_status, 'active'),
    coalesce((tool ->> 'cost_per_call_usd')::numeric, 0),
    expected_version
  )
  on conflict (tool_id) do update set
    name = excluded.name, category = excluded.category, description = excluded.description,
    input_schema = excluded.input_schema, output_schema = excluded.output_schema,
    stream_support = excluded.stream_support, status = excluded.status,
    cost_per_call_usd = excluded.cost_per_call_usd, version = excluded.version;

  delete from tool_agent.tool_sources s where s.tool_id = id;
  insert into tool_agent.tool_sources (tool_id, position, type, endpoint_path, http_method, timeout_ms, host_dir, allow_network,
                                       image, container_id, internal_port, remote_url, remote_path, remote_api_key_encrypted, remote_api_key_masked)
  select id, (e.n - 1)::smallint, (e.src ->> 'type')::tool_agent.source_type,
         coalesce(e.src ->> 'endpoint_path', '/'), coalesce(e.src ->> 'http_method', 'POST'), (e.src ->> 'timeout_ms')::integer,
         e.src ->> 'host_dir', coalesce((e.src ->> 'allow_network')::boolean, false),
         e.src ->> 'image', e.src ->> 'container_id', (e.src ->> 'internal_port')::integer,
         e.src ->> 'remote_url', e.src ->> 'remote_path', e.src ->> 'remote_api_key_encrypted', e.src ->> 'remote_api_key_masked'
  from jsonb_array_elements(sources) with ordinality as e(src, n);

  insert into tool_agent.tool_routes (tool_id) values (id)
  on conflict (tool_id) do update set active_source = 0, state = 'stopped', started_at = null, last_error = null, consecutive_failures = 0;
  return expected_version;
end;
$$;

revoke all on function tool_agent.register_tool(jsonb, jsonb, integer) from public;
grant execute on function tool_agent.register_tool(jsonb, jsonb, integer) to tool_agent_service;
