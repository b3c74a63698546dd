// What every stand-in throws when the Worker reaches a part it was built without: the name of
// the part and where the choice is explained, never a silent wrong answer.
export class NotBundledError extends Error {
  constructor(part: string) {
    super(`${part} is not part of the agent Worker's bundle (see wrangler.toml [alias] and docs/performance.md)`);
    this.name = "NotBundledError";
  }
}
