-- Views for reading the agent's records by eye, in the Supabase dashboard's Table Editor or SQL
-- editor: one row per run with its outcome, and one row per message with its summary.
--
-- security_invoker: a view reads its tables with the rights of whoever queries it, so the
-- tables' RLS applies. An app user querying through PostgREST sees only its own runs and
-- messages; the dashboard, which connects as a privileged role, sees every user's.
--
-- Runs and messages are written by the recording functions, but their jsonb columns carry what
-- the caller of those functions sent, and a user can call them with its own credential. So
-- every value taken out of jsonb is read through the helpers below: a number only if it is a
-- JSON number, a text only if it is a JSON string, null otherwise, and never an error.

create function private.jsonb_number(value jsonb) returns numeric
language sql immutable
as $$
  select case when jsonb_typeof(value) = 'number' then (value #>> '{}')::numeric end
$$;

create function private.jsonb_text(value jsonb) returns text
language sql immutable
as $$
  select case when jsonb_typeof(value) = 'string' then value #>> '{}' end
$$;

grant execute on function private.jsonb_number(jsonb), private.jsonb_text(jsonb) to authenticated, service_role;

-- One row per run: how it ended, how many model steps and tokens it took, how long each stage
-- ran (milliseconds, as the run measured them), and its tool calls.
create view public.agent_run_overview with (security_invoker = true) as
select
  r.owner_id,
  r.thread_id,
  t.title as thread_title,
  r.id as run_id,
  r.status,
  r.error_code,
  r.step_count,
  tools.tool_calls,
  tools.failed_tool_calls,
  tools.tool_error_codes,
  private.jsonb_number(r.usage -> 'input_tokens') as input_tokens,
  private.jsonb_number(r.usage -> 'output_tokens') as output_tokens,
  private.jsonb_number(r.usage -> 'total_tokens') as total_tokens,
  private.jsonb_text(r.models -> 'intent') as intent_model,
  private.jsonb_text(r.models -> 'execution') as execution_model,
  private.jsonb_number(r.stage_timings -> 'intent_ms') as intent_ms,
  private.jsonb_number(r.stage_timings -> 'execution_ms') as execution_ms,
  private.jsonb_number(r.stage_timings -> 'report_ms') as report_ms,
  private.jsonb_number(r.stage_timings -> 'total_ms') as total_ms,
  r.started_at,
  r.finished_at
from public.runs r
join public.threads t on t.owner_id = r.owner_id and t.id = r.thread_id
cross join lateral (
  select
    count(*) as tool_calls,
    count(*) filter (where private.jsonb_text(m.metadata -> 'status') = 'failure') as failed_tool_calls,
    array_agg(distinct private.jsonb_text(m.metadata -> 'error_code'))
      filter (where private.jsonb_text(m.metadata -> 'error_code') is not null) as tool_error_codes
  from public.messages m
  where m.owner_id = r.owner_id and m.thread_id = r.thread_id and m.run_id = r.id and m.role = 'tool'
) tools;

-- One row per message, in thread order (`order by position`): what the user said, what the
-- assistant answered, and for each tool call its one-line summary, the method it called, its
-- outcome and the rules version that wrote the summary.
create view public.agent_thread_messages with (security_invoker = true) as
select
  m.owner_id,
  m.thread_id,
  m.position,
  m.run_id,
  m.role,
  m.content as text_or_summary,
  private.jsonb_text(m.metadata -> 'tool_name') as tool_name,
  private.jsonb_text(m.metadata -> 'module') as module,
  private.jsonb_text(m.metadata -> 'method') as method,
  private.jsonb_text(m.metadata -> 'status') as tool_status,
  private.jsonb_text(m.metadata -> 'error_code') as error_code,
  private.jsonb_number(m.metadata -> 'summary_version') as summary_version,
  case when jsonb_typeof(m.metadata -> 'attachments') = 'array' then jsonb_array_length(m.metadata -> 'attachments') else 0 end
    as attachments,
  m.created_at
from public.messages m;

revoke all on table public.agent_run_overview, public.agent_thread_messages from anon, authenticated;
grant select on table public.agent_run_overview, public.agent_thread_messages to authenticated;
