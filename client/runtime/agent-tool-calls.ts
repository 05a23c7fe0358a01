// One model turn's tool calls, run for the agent loop: a run of reads goes out at once (reads change
// nothing, so the model waits for the slowest rather than the sum), a write waits for everything
// before it to be saved and runs alone, and every result is recorded (checkpointed) for a resume.
import { executeToolCall, toolSet, type Tool, type ToolContext, type ToolOutcome, type ToolSet } from './define-tool'
import { pagePath } from './page-path'
import type { ModelToolCall, SkillContext } from './types'

/** The loop's last checkpoint save: what a write, and the loop's end, wait for. */
export interface SaveChain {
  saved: Promise<void>
}

export interface TurnTools {
  step: number
  /** Every tool the loop knows (a call to one not offered is refused, not unknown). */
  tools: readonly Tool[]
  /** The tools this mode offers the model. */
  offered: readonly Tool[]
  toolContext: ToolContext
}

function outcomeText(outcome: ToolOutcome): string {
  return JSON.stringify(outcome.ok ? outcome.result : { error: outcome.error })
}

/** A read's result at least this long goes to the model once; the note that replaces a repeat is about 200 characters. */
const REPEAT_MIN_CHARS = 300

/**
 * The text each tool result is sent to the model as, for one request's loop. A read that returns
 * exactly what the previous call of the same tool with the same arguments returned (an unchanged page
 * read again, the same search) is sent as a note saying so. That earlier result is still in the
 * request: compaction only ever summarises earlier requests. The note names the call by its tool and
 * arguments, which the model sees in every protocol, not by an id (some providers reuse `call_0` every
 * turn, and the text protocol shows none). A long loop then does not resend, and pay for, the same page
 * at every step. The same calls give the same texts, so a resumed loop sends what the interrupted one did.
 */
export function toolResultTexts(tools: readonly Tool[]): (call: ModelToolCall, outcome: ToolOutcome) => string {
  const previous = new Map<string, string>()
  return (call, outcome) => {
    const text = outcomeText(outcome)
    if (!outcome.ok || text.length < REPEAT_MIN_CHARS || !isRead(tools, call.name) || !call.arguments) return text
    const key = `${call.name}\n${JSON.stringify(call.arguments)}`
    if (previous.get(key) !== text) {
      previous.set(key, text)
      return text
    }
    return JSON.stringify({
      unchanged: true,
      tool: call.name,
      arguments: call.arguments,
      note: `Identical to what your previous ${call.name} call with these arguments returned; that result is above in full.`,
    })
  }
}

function isRead(tools: readonly Tool[], name: string): boolean {
  return tools.some((tool) => tool.name === name && tool.category === 'read')
}

async function runCall(context: SkillContext, turn: TurnTools, offeredSet: ToolSet, call: ModelToolCall): Promise<ToolOutcome> {
  const subject = call.arguments?.path ?? call.arguments?.query
  const row = context.showToolCall({ name: call.name, summary: `${call.name}${typeof subject === 'string' ? ` ${subject}` : ''}…`, arguments: call.arguments ?? call.rawArguments })
  let outcome: ToolOutcome
  const tool = turn.tools.find((candidate) => candidate.name === call.name)
  const page = typeof call.arguments?.path === 'string' ? pagePath(call.arguments.path) : undefined
  if (tool && tool.category !== 'read' && page !== undefined && context.landedWrite(page)) {
    // The write landed just before the interruption, but its result was not saved: doing it again would apply it twice.
    outcome = { ok: true, result: { status: 'applied', path: page, note: 'applied before an interruption' }, summary: `${tool.describe(call.arguments)} (before the interruption)` }
  } else if (tool && !turn.offered.includes(tool)) {
    const planMode = context.inputs.mode === 'plan' && tool.category !== 'read'
    const message = planMode
      ? `${call.name} is not available in plan mode: only read tools are. Finish with a numbered plan instead.`
      : `${call.name} is not available for this request: use only the tools you were given.`
    outcome = { ok: false, error: { code: 'ERR_TOOL_NOT_ALLOWED', message }, summary: `${call.name}: not allowed ${planMode ? 'in plan mode' : 'for this request'}` }
  } else {
    outcome = await executeToolCall(offeredSet, call, turn.toolContext)
  }
  row.finish({ ok: outcome.ok, summary: outcome.summary, result: outcomeText(outcome), ...(outcome.ok ? {} : { code: outcome.error.code }) })
  return outcome
}

/** Runs (or, after a resume, reuses) a turn's calls; their outcomes in call order. */
export async function runToolCalls(context: SkillContext, calls: readonly ModelToolCall[], turn: TurnTools, chain: SaveChain): Promise<ToolOutcome[]> {
  const offeredSet = toolSet(turn.offered)
  const idOf = (index: number) => `tool-${turn.step}-${index}`
  const outcomes: ToolOutcome[] = []
  // A run of reads is recorded at once, so one save carries it (a read lost to a crash is cheap to redo).
  const reads: [string, ToolOutcome][] = []
  const recordReads = () => {
    for (const [id, outcome] of reads.splice(0)) chain.saved = context.record(id, outcome)
  }
  const freshRead = (index: number) => index < calls.length && isRead(turn.tools, calls[index]!.name) && !context.recorded(idOf(index))
  try {
    for (let index = 0; index < calls.length; ) {
      const done = context.recorded<ToolOutcome>(idOf(index))
      if (done) {
        outcomes[index++] = done
        continue
      }
      if (freshRead(index)) {
        let end = index + 1
        while (freshRead(end)) end++
        const run = calls.slice(index, end)
        context.progress(`Running ${run.map((call) => call.name).join(', ')}`)
        // The panel draws their rows once they are back: a frame while they are out would delay the next request.
        const settled = await context.quietPanel(Promise.allSettled(run.map((call) => runCall(context, turn, offeredSet, call))))
        // Those that finished before a Stop are kept, in order, like the others.
        settled.forEach((result, offset) => {
          if (result.status === 'fulfilled') reads.push([idOf(index + offset), (outcomes[index + offset] = result.value)])
        })
        const failed = settled.find((result) => result.status === 'rejected')
        if (failed) throw failed.reason
        context.signal.throwIfAborted()
        index = end
        continue
      }
      context.progress(`Running ${calls[index]!.name}`)
      // A write starts only once everything before it is saved, so a resume knows what led to it.
      recordReads()
      await chain.saved
      const outcome = (outcomes[index] = await runCall(context, turn, offeredSet, calls[index]!))
      context.signal.throwIfAborted()
      // A write's result is saved before anything else happens; reads' go with the next save.
      await (chain.saved = context.record(idOf(index), outcome))
      index++
    }
  } finally {
    // Also when Stop or an error ends the turn: the reads that finished are kept.
    recordReads()
  }
  return outcomes
}
