import { describe, expect, it } from 'vitest'
import { builtinSkills } from '../../../../client/skills'
import { Vocabulary } from '../../../../client/runtime/vocabulary'
import { argumentFromHelp, entersSends, offeredCommands } from '../../../../client/stores/slash-commands'

describe('the slash menu', () => {
  it('offers every command /help lists, /delete included, in the skills\' order', () => {
    const vocabulary = new Vocabulary(builtinSkills)
    const offered = offeredCommands(vocabulary.menu, builtinSkills).map((command) => command.name)
    for (const line of vocabulary.help.split('\n').slice(1)) {
      const name = /\*\*\/([a-z]+)\*\*/.exec(line)?.[1]
      if (name) expect(offered).toContain(name)
    }
    expect(offered.indexOf('delete')).toBeGreaterThan(offered.indexOf('graph'))
    expect(offered.at(-1)).toBe('help')
    // Aliases stay out: they have no help line.
    expect(offered).not.toContain('summarise')
    expect(offered).not.toContain('draft')
  })

  it('takes the argument hint from the help line', () => {
    expect(argumentFromHelp('**/delete** a page — delete a post (after you confirm)')).toBe('page')
    expect(argumentFromHelp('**/graph** — backlinks')).toBeUndefined()
  })

  it('Enter sends a complete command or one that takes nothing; else it completes', () => {
    const write = { name: 'write', argument: 'topic', description: 'Draft a new post' }
    const graph = { name: 'graph', description: 'Links' }
    expect(entersSends('/wr', write)).toBe(false)
    expect(entersSends('/write', write)).toBe(true)
    expect(entersSends('/gr', graph)).toBe(true)
  })
})
