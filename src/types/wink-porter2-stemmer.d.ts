/** Types for wink-porter2-stemmer, which ships none: one function, word in, stem out. */
declare module 'wink-porter2-stemmer' {
  export default function stem(word: string): string;
}
