import { mount } from 'svelte';
import App from './App.svelte';
import { firstScreenBuilt, openingAtLoad, windowLabel } from './lib/ipc';
import { languageReady } from './lib/ui/prefs.svelte';
import { codeFor } from './screens/first';
import './app.css';

const target = document.getElementById('app');
if (!target) throw new Error('the page has no #app element');

// The first screen speaks the till's language from its first frame: English is in hand,
// another language is fetched first. Its code is in hand too: the counter's is in this
// script, another screen's is fetched first when the core's first answer is in
// (screens/first). (Not a top-level await: the build would then move the code the
// entry shares with the lazy screens into a chunk of its own, one more fetch before the
// first screen.)
if (windowLabel() === 'customer') {
  // The customer's screen: its own page, loaded apart from the counter's.
  void import('./screens/CustomerScreen.svelte').then(({ default: CustomerScreen }) => mount(CustomerScreen, { target }));
} else {
  const first = openingAtLoad();
  void Promise.all([languageReady, 'now' in first ? codeFor(first.now) : null]).then(() => {
    mount(App, { target, props: { first } });
    // WebKit styles and lays out the first screen (reading a size forces it), then the
    // window, hidden until now, appears: it paints at once, and mapping it does not take
    // the core the layout runs on (the page's part of start-up, median of 15 starts:
    // 70 ms when the window appeared first, 61 ms so).
    void document.body.offsetHeight;
    void firstScreenBuilt().catch(() => {});
  });
}
