-- Follow-ups keep the thread: the earlier turns record_run_start hands the intent stage now
-- carry, for each tool call, the ids and key facts of what it touched (messages.metadata
-- .context, written by the Worker: "Found 1 event on 2026-04-23: event_id … "Project sync"
-- …"), not only its one-line summary, so "move it to 5pm" can name the event without a new
-- search. A user turn that came with images says how many (" [1 image attached]"), as the
-- Worker writes the current turn. A tool message recorded before this (no context) still gives its summary. The value
-- is the caller's own record, read only into the caller's own prompt, and the Worker cuts each
-- turn to 600 characters. Everything else is as in 20261122000800_record_integrity.sql.

create or replace function public.record_run_start(
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
    select m.role,
           -- A tool turn as later turns need it: the summary with the ids it touched, when recorded.
           case when m.role = 'tool' and jsonb_typeof(m.metadata -> 'context') = 'string'
                then m.metadata ->> 'context'
                -- A user turn that came with images says so (the intent stage never sees them).
                when m.role = 'user' and jsonb_typeof(m.metadata -> 'attachments') = 'array'
                     and jsonb_array_length(m.metadata -> 'attachments') > 0
                then m.content || ' [' || jsonb_array_length(m.metadata -> 'attachments')
                     || case when jsonb_array_length(m.metadata -> 'attachments') = 1 then ' image' else ' images' end || ' attached]'
                else m.content
           end
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
