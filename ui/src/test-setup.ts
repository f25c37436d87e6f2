// Every test file starts with each language's words in hand, as the app has them once
// the till speaks that language (catalogue.test.ts checks the loading itself).
import { catalogue, loadLanguage } from './lib/i18n/catalogue';

await Promise.all([loadLanguage('en'), loadLanguage('fr')]);
if (catalogue('fr').locale !== 'fr-FR') throw new Error('the French words did not load');
