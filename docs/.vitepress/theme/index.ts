import MetaBlogTheme from 'metablog/theme'

export default MetaBlogTheme
