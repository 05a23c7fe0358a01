// A checkpoint file is a log: its first line is a whole checkpoint (PUT), each further line a patch
// (POST) with what changed since, so a long agent task appends its new results instead of
// rewriting its whole history at every step.
import type { Checkpoint, CheckpointPatch, CheckpointStep } from '../plugin/protocol.js'
import { MetaBlogError } from './errors.js'

export type SavedPatch = CheckpointPatch & { updatedAt: number }

function badPatch(message: string): MetaBlogError {
  return new MetaBlogError('ERR_BAD_REQUEST', `A checkpoint patch ${message}.`)
}

function isCount(value: unknown): value is number {
  return Number.isInteger(value) && (value as number) >= 0
}

function checkSteps(value: unknown, name: string): CheckpointStep[] {
  if (!Array.isArray(value) || !value.every((step) => typeof step === 'object' && step !== null && typeof (step as CheckpointStep).id === 'string')) {
    throw badPatch(`needs "${name}" as a list of {id, output, finishedAt}`)
  }
  return value as CheckpointStep[]
}

function isStringMap(value: unknown): boolean {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && Object.values(value).every((item) => typeof item === 'string')
}

/** Checks a POST /checkpoints/:taskId body. */
export function checkPatch(value: unknown): CheckpointPatch {
  const candidate = value as Partial<CheckpointPatch> | null
  if (typeof candidate !== 'object' || candidate === null || !isCount(candidate.base?.steps) || !isCount(candidate.base?.records)) {
    throw badPatch('needs {base: {steps, records}} with the counts the server already holds')
  }
  const patch: CheckpointPatch = {
    base: { steps: candidate.base.steps, records: candidate.base.records },
    steps: checkSteps(candidate.steps ?? [], 'steps'),
    records: checkSteps(candidate.records ?? [], 'records'),
  }
  if (candidate.partial !== undefined) {
    const partial = candidate.partial
    if (partial !== null && (typeof partial !== 'object' || typeof partial.stepId !== 'string' || typeof partial.text !== 'string')) throw badPatch('needs "partial" as {stepId, text} or null')
    patch.partial = partial
  }
  for (const name of ['expectedHashes', 'pendingHashes'] as const) {
    if (candidate[name] === undefined) continue
    if (!isStringMap(candidate[name])) throw badPatch(`needs "${name}" as an object of page → hash`)
    patch[name] = candidate[name]
  }
  if (candidate.createdPaths !== undefined) {
    if (!Array.isArray(candidate.createdPaths) || !candidate.createdPaths.every((item) => typeof item === 'string')) throw badPatch('needs "createdPaths" as a list of paths')
    patch.createdPaths = candidate.createdPaths
  }
  return patch
}

/** The text appended for a patch: a line of its own (a torn earlier append stays a line apart). */
export function patchLine(patch: CheckpointPatch, updatedAt: number): string {
  return `\n${JSON.stringify({ ...patch, updatedAt } satisfies SavedPatch)}`
}

/** Applies one saved patch; false when it starts past what is held (a gap: nothing after it can be trusted). */
function applyPatch(checkpoint: Checkpoint, patch: SavedPatch): boolean {
  const records = checkpoint.records ?? []
  if (patch.base.steps > checkpoint.steps.length || patch.base.records > records.length) return false
  // Spliced at the base, so a patch sent again after a lost answer replaces rather than repeats.
  checkpoint.steps = [...checkpoint.steps.slice(0, patch.base.steps), ...patch.steps]
  checkpoint.records = [...records.slice(0, patch.base.records), ...patch.records]
  if (patch.partial === null) delete checkpoint.partial
  else if (patch.partial !== undefined) checkpoint.partial = patch.partial
  if (patch.expectedHashes) checkpoint.expectedHashes = patch.expectedHashes
  if (patch.pendingHashes) checkpoint.pendingHashes = patch.pendingHashes
  if (patch.createdPaths) checkpoint.createdPaths = patch.createdPaths
  checkpoint.updatedAt = patch.updatedAt
  return true
}

/**
 * Reads a checkpoint log: `check` validates its first line (throwing makes the file corrupt), then
 * the patches are applied in order. A line that does not parse is an append torn by a crash, never
 * answered, so its content comes again in the next patch: it is skipped.
 */
export function foldCheckpoint(text: string, check: (value: unknown) => Checkpoint): Checkpoint {
  const lines = text.split('\n')
  const checkpoint = check(JSON.parse(lines[0]!))
  for (const line of lines.slice(1)) {
    let patch: SavedPatch
    try {
      patch = JSON.parse(line) as SavedPatch
      checkPatch(patch)
      if (typeof patch.updatedAt !== 'number') continue
    } catch {
      continue
    }
    if (!applyPatch(checkpoint, patch)) throw new Error('a patch starts past what the checkpoint holds')
  }
  return checkpoint
}
