// A thread or run id where a request names one outside the run body (a path or a query): the
// rule of an id in a body (runtime/run-request.ts idProblem), as a schema, so the route that
// checks it and the OpenAPI document that describes it read the same definition.
import { z } from "zod";
import { idProblem } from "../runtime/run-request.ts";

export const recordId = (description: string) =>
  z
    .string({ error: "is required (1 to 128 characters Postgres can store)" })
    .superRefine((id, ctx) => {
      const problem = idProblem(id);
      if (problem) ctx.addIssue({ code: "custom", message: problem, input: id });
    })
    // What idProblem enforces, stated for the document (refinements have no JSON Schema form).
    .meta({ minLength: 1, maxLength: 128, description: `${description}; 1 to 128 characters, no NUL or unpaired surrogate` });
