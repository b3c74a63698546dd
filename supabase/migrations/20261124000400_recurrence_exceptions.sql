-- Repeating events can lose one occurrence without losing the series.
--
-- recurrence_exceptions holds the start instants of occurrences that were removed ("cancel
-- next Monday's standup"); reading the calendar skips them when it expands the rule. Removing
-- an occurrence is an edit of the series, so the owner and editors may do it, as for any
-- change of content; deleting the whole series stays the owner's.
alter table public.schedule_items
  add column recurrence_exceptions timestamptz[] not null default '{}'
  check (cardinality(recurrence_exceptions) <= 1000);

grant update (recurrence_exceptions) on table public.schedule_items to authenticated;

-- Adds one occurrence to the exceptions (once: skipping it again changes nothing) and returns
-- the series. Only for a repeating event. SECURITY INVOKER: RLS and column grants apply as to
-- a plain UPDATE, so a viewer or a stranger changes nothing.
create function public.skip_schedule_occurrence(p_id uuid, p_occurrence_start timestamptz)
returns setof public.schedule_items
language sql volatile security invoker set search_path = ''
as $$
  update public.schedule_items as item
  set recurrence_exceptions = case
    when p_occurrence_start = any (item.recurrence_exceptions) then item.recurrence_exceptions
    else array_append(item.recurrence_exceptions, p_occurrence_start)
  end
  where item.id = p_id and item.recurrence_rule is not null
  returning item.*
$$;

revoke execute on function public.skip_schedule_occurrence(uuid, timestamptz) from public, anon;
grant execute on function public.skip_schedule_occurrence(uuid, timestamptz) to authenticated;
