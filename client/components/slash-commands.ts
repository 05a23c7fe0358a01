// The slash commands the menu offers; the runtime's intent router understands each of them.
export interface SlashCommand {
  name: string
  /** What to type after the command, shown as a placeholder hint. */
  argument?: string
  description: string
}

export const SLASH_COMMANDS: readonly SlashCommand[] = [
  { name: 'write', argument: 'topic', description: 'Draft a new post into a Markdown file' },
  { name: 'edit', argument: 'instruction', description: 'Rewrite the text you selected on the page' },
  { name: 'summarize', description: 'Summarize this page (or a named one)' },
  { name: 'research', argument: 'question', description: 'Answer from your own posts, with links' },
  { name: 'graph', description: 'Backlinks, unresolved links and link ideas for this page' },
  { name: 'explain', description: 'Explain the selected code or this page’s code' },
  { name: 'ask', argument: 'question', description: 'Ask anything about your blog' },
  { name: 'help', description: 'What I can do' },
]

/** The commands a draft like "/wr" could still become; none once the draft has a space or newline. */
export function matchingCommands(draft: string): SlashCommand[] {
  const match = /^\/([a-z]*)$/i.exec(draft)
  if (!match) return []
  const typed = (match[1] ?? '').toLowerCase()
  return SLASH_COMMANDS.filter((command) => command.name.startsWith(typed))
}
