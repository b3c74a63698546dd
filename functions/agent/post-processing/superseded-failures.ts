// Which failed calls of a run should not show the person a failure card. A failed call that
// the model follows with another call of the same action (module.method) was a step on the
// way: it corrected its input, or tried again. Its error did not stand, so showing it would
// alarm the person about nothing. A failure that is the last call of its action in the run is
// how that action ended, and is shown.

export interface ActionCall {
  /** Server-made, unique in the run. */
  messageId: string;
  /** `module.method` for project_cli calls; undefined for calls that name no action. */
  action: string | undefined;
  failed: boolean;
}

/** The message ids of failed calls a later call of the same action supersedes. */
export function supersededFailures(calls: readonly ActionCall[]): Set<string> {
  const lastOfAction = new Map<string, string>();
  for (const call of calls) if (call.action) lastOfAction.set(call.action, call.messageId);
  return new Set(
    calls.filter((call) => call.failed && call.action && lastOfAction.get(call.action) !== call.messageId).map((call) => call.messageId),
  );
}
