import { mount } from 'svelte';
import App from './App.svelte';
import { firstScreenBuilt } from './lib/ipc';
import './app.css';

const target = document.getElementById('app');
if (!target) throw new Error('the page has no #app element');

const app = mount(App, { target });
// The window, hidden until now, appears; meanwhile WebKit styles and lays out the first
// screen (reading a size forces it), so the first frame after mapping only paints.
void firstScreenBuilt().catch(() => {});
void document.body.offsetHeight;
export default app;
