// The skills the runtime ships with, in the order the help lists them.
import type { Skill } from '../runtime/types'
import { deleteSkill } from './delete'
import { editSkill } from './edit'
import { explainSkill } from './explain'
import { graphSkill } from './graph'
import { researchSkill } from './research'
import { summarizeSkill } from './summarize'
import { writeSkill } from './write'

export const builtinSkills: readonly Skill[] = [writeSkill, editSkill, summarizeSkill, researchSkill, graphSkill, explainSkill, deleteSkill]

export { deleteSkill, editSkill, explainSkill, graphSkill, researchSkill, summarizeSkill, writeSkill }
export { SkillError } from '../api/errors'
