-- calendar.update changes what it is asked to change and keeps the rest:
--   * metadata is merged key by key: a patch {"reminder_minutes": 15} keeps the event's
--     location and notes; a key patched to null is removed;
--   * moving start_at alone keeps the event's duration: end_at moves with it, unless the
--     patch sets end_at as well (a value, or null to clear it), or the event has no end.
-- One statement, so reading the old values and writing the new ones cannot interleave with
-- another edit. SECURITY INVOKER: the caller's RLS policies and column grants apply exactly as
-- to a plain UPDATE of the row, and the end-after-start check still refuses a bad pair.
-- Keys other than the content columns are ignored; the Worker validates every patch strictly
-- before it gets here.
create function public.update_schedule_item(p_id uuid, p_patch jsonb)
returns setof public.schedule_items
language sql volatile security invoker set search_path = ''
as $$
  update public.schedule_items as item
  set
    title = case when p_patch ? 'title' then p_patch ->> 'title' else item.title end,
    description = case when p_patch ? 'description' then p_patch ->> 'description' else item.description end,
    start_at = case when p_patch ? 'start_at' then (p_patch ->> 'start_at')::timestamptz else item.start_at end,
    end_at = case
      when p_patch ? 'end_at' then (p_patch ->> 'end_at')::timestamptz
      when p_patch ? 'start_at' and item.end_at is not null
        then (p_patch ->> 'start_at')::timestamptz + (item.end_at - item.start_at)
      else item.end_at
    end,
    timezone = case when p_patch ? 'timezone' then p_patch ->> 'timezone' else item.timezone end,
    metadata = case
      when jsonb_typeof(p_patch -> 'metadata') = 'object' then (
        select coalesce(jsonb_object_agg(merged.key, merged.value), '{}'::jsonb)
        from jsonb_each(item.metadata || (p_patch -> 'metadata')) as merged
        where jsonb_typeof(merged.value) <> 'null'
      )
      else item.metadata
    end,
    recurrence_rule = case when p_patch ? 'recurrence_rule' then p_patch ->> 'recurrence_rule' else item.recurrence_rule end,
    status = case when p_patch ? 'status' then p_patch ->> 'status' else item.status end
  where item.id = p_id
  returning item.*
$$;

revoke execute on function public.update_schedule_item(uuid, jsonb) from public, anon;
grant execute on function public.update_schedule_item(uuid, jsonb) to authenticated;
