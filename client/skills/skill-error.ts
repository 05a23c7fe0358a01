// A skill step that cannot go on throws this: the runtime shows the code and the message says what to do.
export class SkillError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message)
    this.name = 'SkillError'
  }
}

/** The contract code of an API error (`ERR_STALE`, `ERR_NOT_FOUND`, …), if it has one. */
export function errorCode(error: unknown): string | undefined {
  return (error as { code?: string } | null)?.code
}
