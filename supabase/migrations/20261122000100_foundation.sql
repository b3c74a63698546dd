-- Shared building blocks for the tables that follow.
--
-- `private` holds helpers that policies call. It is not in PostgREST's exposed schemas, so
-- nothing here is reachable over HTTP.
create schema if not exists private;
revoke all on schema private from public;
grant usage on schema private to authenticated, service_role;

-- Keeps updated_at honest without trusting the client to send it.
create or replace function private.touch_updated_at() returns trigger
language plpgsql
as $$
begin
  new.updated_at := now();
  return new;
end;
$$;

-- A database round trip that any caller may make: GET /health uses it to tell whether
-- PostgREST can reach Postgres. It reads no table and reveals nothing.
create or replace function public.health_check() returns boolean
language sql stable
as $$ select true $$;

grant execute on function public.health_check() to anon, authenticated, service_role;
