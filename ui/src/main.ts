import { mount } from 'svelte';
import App from './App.svelte';
import { firstScreenBuilt, windowLabel } from './lib/ipc';
import { languageReady } from './lib/ui/prefs.svelte';
import './app.css';

const target = document.getElementById('app');
if (!target) throw new Error('the page has no #app element');

// The first screen speaks the till's language from its first frame: English is in hand,
// another language is fetched first. (Not a top-level await: the build would then move
// the code the entry shares with the lazy screens into a chunk of its own, one more
// fetch before the first screen.)
if (windowLabel() === 'customer') {
  // The customer's screen: its own page, loaded apart from the counter's.
  void import('./screens/CustomerScreen.svelte').then(({ default: CustomerScreen }) => mount(CustomerScreen, { target }));
} else {
  void languageReady.then(() => {
    mount(App, { target });
    // WebKit styles and lays out the first screen (reading a size forces it), then the
    // window, hidden until now, appears: it paints at once, and mapping it does not take
    // the core the layout runs on (the page's part of start-up, median of 15 starts:
    // 70 ms when the window appeared first, 61 ms so).
    void document.body.offsetHeight;
    void firstScreenBuilt().catch(() => {});
  });
}
