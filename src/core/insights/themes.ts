/** What can make a review theme: the stop words for a business, and the two-word phrases of one review. */
import type { Business } from '../schema/business.js';
import { tokenize } from './text.js';

const STOP = new Set(
  `a an the and or but if so to of in on at by for with from as is was were be been are am it its it's this that these those i me my we us our you your he him his she her they them their there here what which who whom when where why how all any both each few more most other some such no nor not only own same than too very can will just don't should now do did does done have has had having would could also up out about into over after before again then once get got one two three four five six seven eight nine ten us he's she's they're we're i'm i've we've didn't wasn't isn't couldn't wouldn't doesn't under above below beneath beyond during within without between against toward towards upon via while until across behind along near`.split(
    /\s+/,
  ),
);

/** Words that recur in reviews without being a theme: courtesy, framing, the business's own name, its people. */
const FRAMING = new Set('called call calling around because using used use time times second first thank thanks stars star definitely highly recommend recommended will company go-to really also again would could review five four'.split(' '));

/** Which words cannot start or end a topic phrase, for this business. */
export function topicStopWords(business: Business): (w: string) => boolean {
  const own = new Set([business.name, ...business.technicians.flatMap((t) => [t.name, ...t.aliases])].flatMap((n) => tokenize(n)));
  return (w: string) => STOP.has(w) || FRAMING.has(w) || own.has(w) || /^\d+$/.test(w) || w.length < 3;
}

/** The distinct two-word phrases of one review's sentences. */
export function reviewBigrams(sentences: readonly { text: string }[], skip: (w: string) => boolean): string[] {
  const seen = new Set<string>();
  for (const s of sentences) {
    const toks = tokenize(s.text);
    for (let i = 0; i + 1 < toks.length; i++) if (!skip(toks[i]!) && !skip(toks[i + 1]!)) seen.add(`${toks[i]} ${toks[i + 1]}`);
  }
  return [...seen];
}
