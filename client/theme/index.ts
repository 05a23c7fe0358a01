import type { Theme } from 'vitepress'
import DefaultTheme from 'vitepress/theme'

const MetaBlogTheme: Theme = {
  extends: DefaultTheme,
}

export default MetaBlogTheme
