// The setup card's "Test connection": one call to the dev server, one line for the author.
import type { LlmConnectionTest } from '../../plugin/protocol'
import { connectionFromPage } from './connection'
import { createMetaBlogApi } from './metablog-api'

/** What the test found, in one sentence. */
export function describeConnectionTest(result: LlmConnectionTest): string {
  if (result.ok) return `Connected: reached ${result.host}, the key was accepted, and ${result.model} answered a one-token request in ${result.latencyMs} ms.`
  const where = { config: 'Not configured', reach: 'Could not reach the model', auth: 'The key was refused', model: 'The model did not answer', done: 'Failed' }[result.stage]
  return `${where}: ${result.error?.message ?? 'no details.'}`
}

/** Runs the test against this page's dev server. */
export async function runConnectionTest(): Promise<string> {
  const connection = connectionFromPage()
  if (!connection) return 'The dev server is not running (this page has no MetaBlog token).'
  try {
    return describeConnectionTest(await createMetaBlogApi(connection).llmTest())
  } catch (error) {
    return `The test could not run: ${(error as Error).message}`
  }
}
