-- Demo data for local development: two users and a few records each.
-- Times are relative to the moment the local database is created, so "today" has events.
-- Alice: 11111111-1111-4111-8111-111111111111    Bob: 22222222-2222-4222-8222-222222222222

insert into auth.users (id, email, phone, raw_user_meta_data) values
  ('11111111-1111-4111-8111-111111111111', 'alice@example.com', '+15550000001', '{"name": "Alice Chen"}'),
  ('22222222-2222-4222-8222-222222222222', 'bob@example.com',   '+15550000002', '{"name": "Bob Li"}');

insert into public.schedule_items (id, owner_id, title, description, start_at, end_at, timezone, metadata, source_type) values
  ('a0000000-0000-4000-8000-000000000001', '11111111-1111-4111-8111-111111111111',
   'Project sync', 'Weekly status with the platform team',
   date_trunc('day', now()) + interval '10 hours', date_trunc('day', now()) + interval '11 hours',
   'UTC', '{"location": "Room 4", "reminder_minutes": 15}', 'manual'),
  ('a0000000-0000-4000-8000-000000000002', '11111111-1111-4111-8111-111111111111',
   'Dentist', null,
   date_trunc('day', now()) + interval '1 day 16 hours', date_trunc('day', now()) + interval '1 day 17 hours',
   'UTC', '{}', 'manual'),
  ('a0000000-0000-4000-8000-000000000003', '11111111-1111-4111-8111-111111111111',
   'Quarterly planning', 'Draft goals before the meeting',
   date_trunc('day', now()) + interval '3 days 9 hours', date_trunc('day', now()) + interval '3 days 12 hours',
   'UTC', '{"color": "blue"}', 'agent'),
  ('b0000000-0000-4000-8000-000000000001', '22222222-2222-4222-8222-222222222222',
   'Team lunch', null,
   date_trunc('day', now()) + interval '12 hours', date_trunc('day', now()) + interval '13 hours',
   'UTC', '{"location": "Noodle bar"}', 'manual'),
  ('b0000000-0000-4000-8000-000000000002', '22222222-2222-4222-8222-222222222222',
   'Design review', 'Bob invites Alice; still pending',
   date_trunc('day', now()) + interval '2 days 14 hours', date_trunc('day', now()) + interval '2 days 15 hours',
   'UTC', '{}', 'manual');

-- Bob shared "Team lunch" with Alice (accepted) and invited her to "Design review" (pending).
insert into public.schedule_subscriptions (item_id, subscriber_id, invited_by, permission, status, responded_at) values
  ('b0000000-0000-4000-8000-000000000001', '11111111-1111-4111-8111-111111111111',
   '22222222-2222-4222-8222-222222222222', 'view', 'accepted', now()),
  ('b0000000-0000-4000-8000-000000000002', '11111111-1111-4111-8111-111111111111',
   '22222222-2222-4222-8222-222222222222', 'edit', 'pending', null);

insert into public.contacts (owner_id, display_name, phone, email, linked_user_id) values
  ('11111111-1111-4111-8111-111111111111', 'Bob Li', '+15550000002', 'bob@example.com', '22222222-2222-4222-8222-222222222222'),
  ('11111111-1111-4111-8111-111111111111', 'Dr. Wong (dentist)', '+15550001234', null, null),
  ('22222222-2222-4222-8222-222222222222', 'Alice Chen', '+15550000001', 'alice@example.com', '11111111-1111-4111-8111-111111111111');

insert into public.user_memory (owner_id, kind, content) values
  ('11111111-1111-4111-8111-111111111111', 'work_profile',
   '{"role": "Engineering manager", "team": "Platform", "working_hours": {"start": "09:00", "end": "18:00"}}'),
  ('11111111-1111-4111-8111-111111111111', 'user_memory',
   '{"preferences": ["Prefers morning meetings"], "facts": ["Allergic to peanuts"]}');
