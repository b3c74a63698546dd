// A model call that goes silent has failed (decision D47). A provider can accept the connection
// and then send nothing (an overloaded server, a proxy that lost the other side), and without a
// bound the run would wait for it until the user cancels. Each model call gets a deadline on its
// silence: it is reset by every part the model sends, so a long answer that keeps streaming is
// never cut, and it aborts the call's signal when the model has sent nothing for `idleMs`.
// Providers end a call whose signal aborts (the OpenAI provider aborts its fetch, headers or body
// alike).

/** The model sent nothing for longer than the deadline allows. */
export class ModelSilent extends Error {
  override readonly name = "ModelSilent";
}

export interface SilenceDeadline {
  /** Aborts when the model has been silent for too long, or when `outer` (the run's cancel) aborts. */
  signal: AbortSignal;
  /** The model sent something: the silence starts again. */
  heard(): void;
  /** The call is over (or the run's own work begins): no more deadline, and the cancel no longer forwarded to it. */
  stop(): void;
  /** The deadline's error, once it has ended the call. */
  expired(): ModelSilent | undefined;
}

export function silenceDeadline(idleMs: number, outer?: AbortSignal): SilenceDeadline {
  const controller = new AbortController();
  // The run's cancel is forwarded by a listener: AbortSignal.any cost four times as much per call.
  const forward = () => controller.abort(outer?.reason);
  if (outer?.aborted) forward();
  else outer?.addEventListener("abort", forward, { once: true });
  let heardAt = Date.now();
  let timer: ReturnType<typeof setTimeout> | undefined;
  // One timer for the whole call, re-armed for what is left when it fires: a part costs a clock
  // read, not a timer.
  const check = () => {
    const silentMs = Date.now() - heardAt;
    if (silentMs < idleMs) {
      timer = setTimeout(check, idleMs - silentMs);
      return;
    }
    controller.abort(new ModelSilent(`the model sent nothing for ${Math.round(silentMs / 1000)} s`));
  };
  timer = setTimeout(check, idleMs);
  return {
    signal: controller.signal,
    heard: () => {
      heardAt = Date.now();
    },
    stop: () => {
      clearTimeout(timer);
      outer?.removeEventListener("abort", forward);
    },
    expired: () => (controller.signal.reason instanceof ModelSilent ? controller.signal.reason : undefined),
  };
}
