-- Recording a run in two round trips instead of one per row (and the intent stage's view of
-- the thread comes back from the first). Both functions run with the
-- caller's rights (SECURITY INVOKER), so Row Level Security applies exactly as for direct
-- inserts: a user can only write its own thread, run and messages.

-- At the start: the thread's latest earlier messages (what the intent stage sees, read before
-- this run adds to it), then the thread (created by its first run), the run, and the user's
-- message.
create or replace function public.record_run_start(
  p_thread_id text,
  p_run_id text,
  p_title text,
  p_models jsonb,
  p_user_content text,
  p_user_metadata jsonb,
  p_earlier_limit integer default 12
) returns table (turn_role text, turn_content text)
language plpgsql security invoker set search_path = ''
as $$
begin
  return query
    select m.role, m.content
    from public.messages m
    where m.owner_id = auth.uid() and m.thread_id = p_thread_id
    order by m.seq desc
    limit least(greatest(p_earlier_limit, 0), 50);

  insert into public.threads (owner_id, id, title)
  values (auth.uid(), p_thread_id, left(p_title, 200))
  on conflict (owner_id, id) do update set updated_at = now();

  insert into public.runs (owner_id, id, thread_id, status, models)
  values (auth.uid(), p_run_id, p_thread_id, 'running', coalesce(p_models, '{}'::jsonb));

  insert into public.messages (owner_id, thread_id, run_id, role, content, metadata)
  values (auth.uid(), p_thread_id, p_run_id, 'user', p_user_content, coalesce(p_user_metadata, '{}'::jsonb));
end;
$$;

-- At the end: every tool and assistant message of the run, in order, and the run's outcome,
-- in one transaction, so history never shows half a run.
create or replace function public.record_run_finish(
  p_run_id text,
  p_status text,
  p_error_code text,
  p_step_count integer,
  p_usage jsonb,
  p_stage_timings jsonb,
  p_messages jsonb
) returns void
language plpgsql security invoker set search_path = ''
as $$
declare
  v_thread_id text;
begin
  update public.runs
     set status = p_status, error_code = p_error_code, step_count = p_step_count,
         usage = coalesce(p_usage, '{}'::jsonb), stage_timings = coalesce(p_stage_timings, '{}'::jsonb),
         finished_at = now()
   where owner_id = auth.uid() and id = p_run_id
  returning thread_id into v_thread_id;
  if v_thread_id is null then
    raise exception 'no run % for this user', p_run_id using errcode = 'P0002';
  end if;

  insert into public.messages (owner_id, thread_id, run_id, role, content, metadata)
  select auth.uid(), v_thread_id, p_run_id, m.role, m.content, coalesce(m.metadata, '{}'::jsonb)
  from rows from (jsonb_to_recordset(coalesce(p_messages, '[]'::jsonb)) as (role text, content text, metadata jsonb))
       with ordinality as m(role, content, metadata, ord)
  order by m.ord;

  update public.threads set updated_at = now() where owner_id = auth.uid() and id = v_thread_id;
end;
$$;

revoke execute on function public.record_run_start(text, text, text, jsonb, text, jsonb, integer) from public, anon;
revoke execute on function public.record_run_finish(text, text, text, integer, jsonb, jsonb, jsonb) from public, anon;
grant execute on function public.record_run_start(text, text, text, jsonb, text, jsonb, integer) to authenticated;
grant execute on function public.record_run_finish(text, text, text, integer, jsonb, jsonb, jsonb) to authenticated;
