// The AG-UI events of an SSE body as a test reads them: one JSON object per frame's data lines.

export interface SseEvent {
  type: string;
  [key: string]: any;
}

export const parseSseEvents = (body: string): SseEvent[] =>
  body
    .split("\n\n")
    .filter((frame) => frame.includes("data: "))
    .map((frame) =>
      JSON.parse(
        frame
          .split("\n")
          .filter((line) => line.startsWith("data: "))
          .map((line) => line.slice(6))
          .join("\n"),
      ),
    );
