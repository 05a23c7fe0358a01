// The system prompt every skill starts from; each step adds its own instruction.
export const SYSTEM_PROMPT =
  'You are MetaBlog, the co-author of a technical blog. Write clear, correct, concrete prose in Markdown. ' +
  'Answer in the language the author used.'

export function system(task: string) {
  return { role: 'system' as const, content: `${SYSTEM_PROMPT}\n\n${task}` }
}

export function user(content: string) {
  return { role: 'user' as const, content }
}
