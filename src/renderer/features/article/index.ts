/** A post's long-form article: offered on a post that carries one, asked for only when opened. */
export { carriesArticle } from './article-shape';
export { OpenArticleButton } from './components/OpenArticleButton';
