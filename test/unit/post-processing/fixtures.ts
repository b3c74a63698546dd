// The event the post-processing tests describe, as its card hint shows it.
export const SYNC_EVENT_HINT = {
  id: "a0000000-0000-4000-8000-000000000001",
  title: "Project sync",
  start_at: "2026-04-23T16:00:00+08:00",
  end_at: "2026-04-23T17:00:00+08:00",
  timezone: "Asia/Shanghai",
  status: "active",
  access: "owner",
  location: "Room 4",
} as const;
