-- The agent's records (threads, runs, messages) are written only by the two recording
-- functions, and nothing in them counts anything but the owner's own activity.
--
-- Why: until now `authenticated` could insert, update and delete its own record rows through
-- PostgREST. RLS kept those rows the user's own, but the server reads them back (history,
-- earlier turns), so every column became a place to plant values the server might trust.
-- And `messages.seq` was one counter for all users, so the gaps between one user's seq values
-- told how many messages everybody else wrote.
--
-- After this migration:
--   * `authenticated` may only SELECT its own rows; every write goes through
--     record_run_start / record_run_finish, SECURITY DEFINER functions that take the owner from
--     auth.uid() and check every id they are given against it;
--   * each message has a `position` in its thread (1, 2, 3, ...), assigned by those functions
--     under the thread's row lock; history pages by it; the global `seq` is gone;
--   * the functions fail with SQLSTATEs PostgREST answers as 4xx (see "Errors" below), never 5xx.

-- Positions: the thread hands them out, so concurrent runs in one thread never take the same one.
alter table public.threads add column last_position bigint not null default 0 check (last_position >= 0);
alter table public.messages add column position bigint;

update public.messages m
   set position = numbered.position
  from (select id, row_number() over (partition by owner_id, thread_id order by seq) as position
          from public.messages) numbered
 where m.id = numbered.id;

update public.threads t
   set last_position = coalesce((select max(m.position) from public.messages m
                                  where m.owner_id = t.owner_id and m.thread_id = t.id), 0);

alter table public.messages alter column position set not null;
alter table public.messages add constraint messages_position_positive check (position > 0);
-- Also the index history pages by (newest first within one thread).
alter table public.messages add constraint messages_thread_position_key unique (owner_id, thread_id, position);
drop index public.messages_thread_seq_idx;
alter table public.messages drop column seq;

-- Reads only. The write policies go with the privileges they guarded.
revoke all on table public.threads, public.runs, public.messages from authenticated;
grant select on table public.threads, public.runs, public.messages to authenticated;

drop policy "owner starts threads" on public.threads;
drop policy "owner updates its threads" on public.threads;
drop policy "owner deletes its threads" on public.threads;
drop policy "owner records runs" on public.runs;
drop policy "owner updates its runs" on public.runs;
drop policy "owner deletes its runs" on public.runs;
drop policy "owner records messages" on public.messages;
drop policy "owner updates its messages" on public.messages;
drop policy "owner deletes its messages" on public.messages;

-- Errors. PostgREST answers a SQLSTATE of the form PTnnn with HTTP status nnn; the message is
-- a stable code the Worker maps (functions/agent/persistence/record-errors.ts):
--   PT401 NO_USER             the call carries no user (auth.uid() is null)
--   PT404 RUN_NOT_FOUND       finishing a run this user never started (or another user's)
--   PT409 RUN_EXISTS          starting a run id this user already used
--   PT409 RUN_ALREADY_FINISHED finishing a run twice
--   PT400 INVALID_RECORD      a value the records cannot hold (the detail names the field)
-- Constraint violations the checks below do not anticipate keep their own SQLSTATE (23514,
-- 22P05, ...), which PostgREST also answers with 400.

drop function public.record_run_start(text, text, text, jsonb, text, jsonb, integer);
drop function public.record_run_finish(text, text, text, integer, jsonb, jsonb, jsonb);

-- At the start: the thread's latest earlier messages (what the intent stage sees, read before
-- this run adds to it), then the thread (created by its first run), the run, and the user's
-- message at the thread's next position.
create function public.record_run_start(
  p_thread_id text,
  p_run_id text,
  p_title text,
  p_models jsonb,
  p_user_content text,
  p_user_metadata jsonb,
  p_earlier_limit integer default 12
) returns table (turn_role text, turn_content text)
language plpgsql security definer set search_path = ''
as $$
declare
  v_owner uuid := auth.uid();
  v_position bigint;
begin
  if v_owner is null then
    raise exception 'NO_USER' using errcode = 'PT401';
  end if;
  if p_thread_id is null or char_length(p_thread_id) not between 1 and 128 then
    raise exception 'INVALID_RECORD' using errcode = 'PT400', detail = 'p_thread_id must be 1 to 128 characters';
  end if;
  if p_run_id is null or char_length(p_run_id) not between 1 and 128 then
    raise exception 'INVALID_RECORD' using errcode = 'PT400', detail = 'p_run_id must be 1 to 128 characters';
  end if;
  if p_user_metadata is not null and jsonb_typeof(p_user_metadata) <> 'object' then
    raise exception 'INVALID_RECORD' using errcode = 'PT400', detail = 'p_user_metadata must be a JSON object';
  end if;
  if exists (select 1 from public.runs r where r.owner_id = v_owner and r.id = p_run_id) then
    raise exception 'RUN_EXISTS' using errcode = 'PT409', detail = 'this run id was already used';
  end if;

  return query
    select m.role, m.content
    from public.messages m
    where m.owner_id = v_owner and m.thread_id = p_thread_id
    order by m.position desc
    limit least(greatest(coalesce(p_earlier_limit, 0), 0), 50);

  -- Creates the thread or locks it: positions below are handed out under this lock.
  insert into public.threads (owner_id, id, title, last_position)
  values (v_owner, p_thread_id, left(p_title, 200), 1)
  on conflict (owner_id, id) do update
    set updated_at = now(), last_position = public.threads.last_position + 1
  returning last_position into v_position;

  insert into public.runs (owner_id, id, thread_id, status, models)
  values (v_owner, p_run_id, p_thread_id, 'running', coalesce(p_models, '{}'::jsonb));

  insert into public.messages (owner_id, thread_id, run_id, position, role, content, metadata)
  values (v_owner, p_thread_id, p_run_id, v_position, 'user', coalesce(p_user_content, ''),
          coalesce(p_user_metadata, '{}'::jsonb));
end;
$$;

-- At the end: every tool and assistant message of the run, in order, at the thread's next
-- positions, and the run's outcome, in one transaction, so history never shows half a run.
-- Only a run that is still running can be finished, and only by its owner.
create function public.record_run_finish(
  p_run_id text,
  p_status text,
  p_error_code text,
  p_step_count integer,
  p_usage jsonb,
  p_stage_timings jsonb,
  p_messages jsonb
) returns void
language plpgsql security definer set search_path = ''
as $$
declare
  v_owner uuid := auth.uid();
  v_thread_id text;
  v_status text;
  v_count integer;
  v_base bigint;
begin
  if v_owner is null then
    raise exception 'NO_USER' using errcode = 'PT401';
  end if;
  if p_status is null or p_status not in ('succeeded', 'failed', 'cancelled') then
    raise exception 'INVALID_RECORD' using errcode = 'PT400', detail = 'p_status must be succeeded, failed or cancelled';
  end if;
  if p_messages is not null and jsonb_typeof(p_messages) <> 'array' then
    raise exception 'INVALID_RECORD' using errcode = 'PT400', detail = 'p_messages must be a JSON array';
  end if;
  if exists (select 1 from jsonb_array_elements(coalesce(p_messages, '[]'::jsonb)) e
              where jsonb_typeof(e) <> 'object'
                 or e->>'role' is null or e->>'role' not in ('assistant', 'tool')
                 or jsonb_typeof(coalesce(e->'content', '""'::jsonb)) <> 'string'
                 or jsonb_typeof(coalesce(e->'metadata', '{}'::jsonb)) <> 'object') then
    raise exception 'INVALID_RECORD' using errcode = 'PT400',
      detail = 'p_messages must be objects with role assistant or tool, text content and object metadata';
  end if;

  select r.thread_id, r.status into v_thread_id, v_status
    from public.runs r
   where r.owner_id = v_owner and r.id = p_run_id
     for update;
  if v_thread_id is null then
    raise exception 'RUN_NOT_FOUND' using errcode = 'PT404', detail = 'no such run for this user';
  end if;
  if v_status <> 'running' then
    raise exception 'RUN_ALREADY_FINISHED' using errcode = 'PT409', detail = 'the run has already been finished';
  end if;

  update public.runs
     set status = p_status, error_code = p_error_code, step_count = coalesce(p_step_count, 0),
         usage = coalesce(p_usage, '{}'::jsonb), stage_timings = coalesce(p_stage_timings, '{}'::jsonb),
         finished_at = now()
   where owner_id = v_owner and id = p_run_id;

  v_count := jsonb_array_length(coalesce(p_messages, '[]'::jsonb));
  update public.threads
     set updated_at = now(), last_position = last_position + v_count
   where owner_id = v_owner and id = v_thread_id
  returning last_position - v_count into v_base;

  insert into public.messages (owner_id, thread_id, run_id, position, role, content, metadata)
  select v_owner, v_thread_id, p_run_id, v_base + m.ord, m.role, coalesce(m.content, ''), coalesce(m.metadata, '{}'::jsonb)
  from rows from (jsonb_to_recordset(coalesce(p_messages, '[]'::jsonb)) as (role text, content text, metadata jsonb))
       with ordinality as m(role, content, metadata, ord);
end;
$$;

revoke execute on function public.record_run_start(text, text, text, jsonb, text, jsonb, integer) from public, anon;
revoke execute on function public.record_run_finish(text, text, text, integer, jsonb, jsonb, jsonb) from public, anon;
grant execute on function public.record_run_start(text, text, text, jsonb, text, jsonb, integer) to authenticated;
grant execute on function public.record_run_finish(text, text, text, integer, jsonb, jsonb, jsonb) to authenticated;
