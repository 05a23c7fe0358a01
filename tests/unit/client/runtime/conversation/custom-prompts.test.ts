import { describe, expect, it } from 'vitest'
import type { CustomPrompt } from '../../../../../client/api/prompts'
import { fillTemplate, matchPrompt, promptCommand, promptsHelp } from '../../../../../client/runtime/conversation/custom-prompts'

const prompt: CustomPrompt = { command: 'tldr', description: 'A one-line summary', template: 'Summarise {{ page }} for: {{input}}', file: 'prompts/tldr.md' }

describe('custom prompts', () => {
  it('fill {{input}}, {{selection}} and {{page}}, with "(none)" for a missing value and nothing else touched', () => {
    expect(fillTemplate('{{input}} | {{selection}} | {{page}} | {{other}}', { input: ' fast ', page: 'a.md' })).toBe('fast | (none) | a.md | {{other}}')
  })

  it('match "/command rest" case-insensitively, not other commands or plain text', () => {
    expect(matchPrompt('/TLDR for managers', [prompt], { currentFile: 'posts/a.md' })).toEqual({ prompt, text: 'Summarise posts/a.md for: for managers' })
    expect(matchPrompt('/tldr', [prompt], {})?.text).toBe('Summarise (none) for: (none)')
    expect(matchPrompt('/write x', [prompt], {})).toBeNull()
    expect(matchPrompt('tldr please', [prompt], {})).toBeNull()
  })

  it('become slash-menu entries and a /help section naming their files', () => {
    expect(promptCommand(prompt)).toEqual({ name: 'tldr', description: 'A one-line summary', argument: '…' })
    expect(promptsHelp([prompt])).toBe('**Your prompts**\n- `/tldr` — A one-line summary _(prompts/tldr.md)_')
    expect(promptsHelp([])).toBe('')
  })
})
