// The one thing an author should do about a model failure, as the error card's headline.

const ADVICE: Readonly<Record<string, string>> = {
  ERR_LLM_UNCONFIGURED: 'Connect a model',
  ERR_LLM_AUTH: 'Check the API key',
  ERR_LLM_QUOTA: 'Add credit to the account',
  ERR_LLM_MODEL: 'Pick another model',
  ERR_LLM_RATE_LIMIT: 'Wait a moment, then retry',
  ERR_LLM_CONTEXT: 'Too long for this model: shorten or compact',
  ERR_LLM_NO_TOOLS: 'This model cannot use tools: use a recipe',
  ERR_LLM_UNREACHABLE: 'Check that the model server is running',
  ERR_LLM_TIMEOUT: 'The model took too long: retry',
  ERR_MODEL_OUTPUT: 'The model did not write what was asked',
}

/** The headline for an error code, or the generic one. */
export function adviceFor(code: string): string {
  return Object.hasOwn(ADVICE, code) ? ADVICE[code]! : 'Something went wrong'
}
