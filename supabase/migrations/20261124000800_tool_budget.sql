-- Spending: a paid call is recorded in the ledger only if it fits the month's budget
-- and the single-call limit. The check and the insert happen under one lock, so two calls at
-- once cannot both squeeze under the monthly limit.
--
-- Answers one JSON object:
--   {"charged": true,  "month_spent_usd": n}                       the call may run
--   {"charged": false, "reason": "single_tx_limit" | "monthly_limit", "cost_usd", "limit_usd",
--    "month_spent_usd"}                                            refused, with the figures
create function tool_agent.charge_call(
  tool text,
  caller_id text,
  cost numeric,
  single_tx_limit numeric,
  monthly_limit numeric,
  approval uuid default null
)
returns jsonb
language plpgsql
set search_path = pg_catalog
as $$
declare
  spent numeric;
begin
  if cost is null or cost < 0 then
    raise exception 'cost must be a non-negative number' using errcode = '22023';
  end if;
  -- One month's spending is serialised; other months and reads are not held up.
  perform pg_advisory_xact_lock(hashtext('tool_agent.cost_ledger'), (extract(year from now()) * 12 + extract(month from now()))::int);
  select coalesce(sum(l.cost_usd), 0) into spent
  from tool_agent.cost_ledger l
  where l.created_at >= date_trunc('month', now());

  if cost > single_tx_limit then
    return jsonb_build_object('charged', false, 'reason', 'single_tx_limit', 'cost_usd', cost, 'limit_usd', single_tx_limit, 'month_spent_usd', spent);
  end if;
  if spent + cost > monthly_limit then
    return jsonb_build_object('charged', false, 'reason', 'monthly_limit', 'cost_usd', cost, 'limit_usd', monthly_limit, 'month_spent_usd', spent);
  end if;
  insert into tool_agent.cost_ledger (tool_id, caller, cost_usd, approval_id) values (tool, caller_id, cost, approval);
  return jsonb_build_object('charged', true, 'month_spent_usd', spent + cost);
end;
$$;

revoke all on function tool_agent.charge_call(text, text, numeric, numeric, numeric, uuid) from public;
grant execute on function tool_agent.charge_call(text, text, numeric, numeric, numeric, uuid) to tool_agent_service;
