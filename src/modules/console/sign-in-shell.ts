import de from '../../../web/src/locales/de.json';
import en from '../../../web/src/locales/en.json';
import es from '../../../web/src/locales/es.json';
import fr from '../../../web/src/locales/fr.json';
import deIdentity from '../../../web/src/locales/identity/de.json';
import enIdentity from '../../../web/src/locales/identity/en.json';
import esIdentity from '../../../web/src/locales/identity/es.json';
import frIdentity from '../../../web/src/locales/identity/fr.json';
import ptIdentity from '../../../web/src/locales/identity/pt.json';
import roIdentity from '../../../web/src/locales/identity/ro.json';
import ruIdentity from '../../../web/src/locales/identity/ru.json';
import zhIdentity from '../../../web/src/locales/identity/zh.json';
import pt from '../../../web/src/locales/pt.json';
import ro from '../../../web/src/locales/ro.json';
import ru from '../../../web/src/locales/ru.json';
import zh from '../../../web/src/locales/zh.json';
import { LANGUAGE_NAMES, LANGUAGES, type LanguageCode } from '../../shared/languages';

// The sign-in card painted from the html, before the console's JavaScript has run (issue 23: a phone on a slow network
// saw a blank page for 3.6 s while 238 KB of script arrived and ran). The worker writes this shell into the console's
// page at `/` (routes.ts): the header and the card the console draws for a guest there, with Mantine's own class names
// (its stylesheet is in the page's head), in the browser's language, in the console's own strings. It is a picture
// (`inert`: nothing in it can be focused or typed into); the console draws the real card beside it, hidden until the
// console removes the shell (web/src/app/boot-shell.ts), in one frame, so nothing moves. test/e2e checks that the
// shell and the card sit in the same place.
//
// The page's one inline script (SHELL_SCRIPT, allowed by its hash in the Content-Security-Policy) removes the shell at
// once for a signed-in user or a saved language other than the shell's, and otherwise starts the console's script
// only after the shell is painted, so the first paint does not wait for it.

const STRINGS = { de, en, es, fr, pt, ro, ru, zh } satisfies Record<LanguageCode, unknown>;
const IDENTITY = { de: deIdentity, en: enIdentity, es: esIdentity, fr: frIdentity, pt: ptIdentity, ro: roIdentity, ru: ruIdentity, zh: zhIdentity };

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);

/** The words the shell shows, in `language` (the console's keys: app.name, auth.*, identity.forgot.link, language.label). */
function wordsOf(language: LanguageCode) {
  const s = STRINGS[language];
  return {
    app: s.app.name,
    title: s.auth.signInTitle,
    tabPassword: s.auth.tabPassword,
    tabSocial: s.auth.tabSocial,
    username: s.auth.username,
    password: s.auth.password,
    submit: s.auth.signIn,
    forgot: IDENTITY[language].identity.forgot.link,
    becomeClient: IDENTITY[language].identity.platform.becomeClient,
    languageLabel: s.language.label,
  };
}

/**
 * The CSS variables Mantine writes into the head when the console starts (the theme's primary colour and radius, the
 * header's height, the breakpoint classes), so the shell looks the same before it has; and the rule that keeps the
 * console's own drawing hidden while the shell is there.
 */
const SHELL_STYLE = `<style data-sign-in-shell>
:root{--mantine-radius-default:calc(0.5rem * var(--mantine-scale));--mantine-primary-color-filled:var(--mantine-color-indigo-filled);--mantine-primary-color-filled-hover:var(--mantine-color-indigo-filled-hover);--mantine-primary-color-light:var(--mantine-color-indigo-light);--mantine-primary-color-light-hover:var(--mantine-color-indigo-light-hover);--mantine-primary-color-light-color:var(--mantine-color-indigo-light-color);--app-shell-header-height:calc(3.5rem * var(--mantine-scale));--app-shell-header-offset:calc(3.5rem * var(--mantine-scale));--app-shell-padding:var(--mantine-spacing-md);--mantine-color-anchor:var(--mantine-color-indigo-6)}
@media (max-width: 35.99375em){#boot-shell .mantine-visible-from-xs{display:none !important}}
#boot-shell ~ #root{display:none}
</style>`;

// Icons as the console draws them (tabler's key and users, Mantine's chevron and eye).
const KEY_ICON =
  '<svg xmlns="http://www.w3.org/2000/svg" width="16" height="16" viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round"><path d="M16.555 3.843l3.602 3.602a2.877 2.877 0 0 1 0 4.069l-2.643 2.643a2.877 2.877 0 0 1 -4.069 0l-.301 -.301l-6.558 6.558a2 2 0 0 1 -1.239 .578l-.175 .008h-1.172a1 1 0 0 1 -.993 -.883l-.007 -.117v-1.172a2 2 0 0 1 .467 -1.284l.119 -.13l.414 -.414h2v-2h2v-2l2.144 -2.144l-.301 -.301a2.877 2.877 0 0 1 0 -4.069l2.643 -2.643a2.877 2.877 0 0 1 4.069 0"/><path d="M15 9h.01"/></svg>';
const USERS_ICON =
  '<svg xmlns="http://www.w3.org/2000/svg" width="16" height="16" viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round"><path d="M5 7a4 4 0 1 0 8 0a4 4 0 1 0 -8 0"/><path d="M3 21v-2a4 4 0 0 1 4 -4h4a4 4 0 0 1 4 4v2"/><path d="M16 3.13a4 4 0 0 1 0 7.75"/><path d="M21 21v-2a4 4 0 0 0 -3 -3.85"/></svg>';
const CHEVRON_ICON =
  '<svg class="m_2943220b mantine-ComboboxChevron-chevron" data-size="xs" viewBox="0 0 15 15" fill="none" style="--combobox-chevron-size:var(--combobox-chevron-size-xs)"><path d="M4.93179 5.43179C4.75605 5.60753 4.75605 5.89245 4.93179 6.06819C5.10753 6.24392 5.39245 6.24392 5.56819 6.06819L7.49999 4.13638L9.43179 6.06819C9.60753 6.24392 9.89245 6.24392 10.0682 6.06819C10.2439 5.89245 10.2439 5.60753 10.0682 5.43179L7.81819 3.18179C7.73379 3.0974 7.61933 3.04999 7.49999 3.04999C7.38064 3.04999 7.26618 3.0974 7.18179 3.18179L4.93179 5.43179ZM10.0682 9.56819C10.2439 9.39245 10.2439 9.10753 10.0682 8.93179C9.89245 8.75606 9.60753 8.75606 9.43179 8.93179L7.49999 10.8636L5.56819 8.93179C5.39245 8.75606 5.10753 8.75606 4.93179 8.93179C4.75605 9.10753 4.75605 9.39245 4.93179 9.56819L7.18179 11.8182C7.35753 11.9939 7.64245 11.9939 7.81819 11.8182L10.0682 9.56819Z" fill="currentColor" fill-rule="evenodd" clip-rule="evenodd"/></svg>';
const EYE_ICON =
  '<svg viewBox="0 0 15 15" fill="none" style="width:var(--psi-icon-size);height:var(--psi-icon-size)"><path d="M7.5 11C4.80285 11 2.52952 9.62184 1.09622 7.50001C2.52952 5.37816 4.80285 4 7.5 4C10.1971 4 12.4705 5.37816 13.9038 7.50001C12.4705 9.62183 10.1971 11 7.5 11ZM7.5 3C4.30786 3 1.65639 4.70638 0.0760002 7.23501C-0.0253338 7.39715 -0.0253334 7.60288 0.0760014 7.76501C1.65639 10.2936 4.30786 12 7.5 12C10.6921 12 13.3436 10.2936 14.924 7.76501C15.0253 7.60288 15.0253 7.39715 14.924 7.23501C13.3436 4.70638 10.6921 3 7.5 3ZM7.5 9.5C8.60457 9.5 9.5 8.60457 9.5 7.5C9.5 6.39543 8.60457 5.5 7.5 5.5C6.39543 5.5 5.5 6.39543 5.5 7.5C5.5 8.60457 6.39543 9.5 7.5 9.5Z" fill="currentColor" fill-rule="evenodd" clip-rule="evenodd"/></svg>';

const group = (gap: string, justify: string, extra = '') =>
  `<div class="m_4081bf90 mantine-Group-root" style="--group-gap:var(--mantine-spacing-${gap});--group-align:center;--group-justify:${justify};--group-wrap:nowrap;${extra}">`;

function header(language: LanguageCode, w: ReturnType<typeof wordsOf>, orgName: string): string {
  const options = LANGUAGES.map((code) => `<option value="${code}"${code === language ? ' selected' : ''}>${escapeHtml(LANGUAGE_NAMES[code])}</option>`).join(
    '',
  );
  const badge = `<div class="m_347db0ec mantine-Badge-root mantine-visible-from-xs" data-variant="light" style="--badge-bg:var(--mantine-color-indigo-light);--badge-color:var(--mantine-color-indigo-light-color);--badge-bd:calc(0.0625rem * var(--mantine-scale)) solid transparent;min-width:max-content"><span class="m_5add502a mantine-Badge-label">${escapeHtml(orgName)}</span></div>`;
  return `<header class="m_3b16f56b mantine-AppShell-header" data-with-border="true" style="--app-shell-header-z-index:100">${group('md', 'space-between', 'padding-inline:var(--mantine-spacing-md);height:100%')}${group('sm', 'flex-start')}<a class="m_849cf0da m_b6d8b162 mantine-Text-root mantine-Anchor-root" data-underline="never" href="/" style="color:inherit"><h3 class="m_8a5d1357 mantine-Title-root" data-order="3" style="--title-fw:var(--mantine-h3-font-weight);--title-lh:var(--mantine-h3-line-height);--title-fz:var(--mantine-h3-font-size)">${escapeHtml(w.app)}</h3></a>${badge}</div>${group('sm', 'flex-start')}<div class="m_46b77525 mantine-InputWrapper-root mantine-NativeSelect-root" data-size="xs"><div class="m_6c018570 mantine-Input-wrapper mantine-NativeSelect-wrapper" data-variant="default" data-size="xs" data-pointer="true" data-with-right-section="true" style="--input-height:var(--input-height-xs);--input-fz:var(--mantine-font-size-xs);--input-right-section-pointer-events:none"><select class="m_8fb7ebe7 mantine-Input-input mantine-NativeSelect-input" data-variant="default" aria-label="${escapeHtml(w.languageLabel)}">${options}</select><div data-position="right" class="m_82577fc2 mantine-Input-section mantine-NativeSelect-section">${CHEVRON_ICON}</div></div></div></div></div></header>`;
}

function tab(label: string, icon: string, active: boolean): string {
  return `<button class="m_539e827b m_4ec4dce6 mantine-Tabs-tab m_87cf2631 mantine-UnstyledButton-root" data-variant="default"${active ? ' data-active="true"' : ''} data-orientation="horizontal" type="button" role="tab" aria-selected="${active}"><span class="m_fc420b1f mantine-Tabs-tabSection" data-position="left">${icon}</span><span class="m_42bbd1ae mantine-Tabs-tabLabel">${escapeHtml(label)}</span></button>`;
}

/** What the card shows besides its form, from the platform's settings (as /init/guest gives them to the console). */
export interface ShellOptions {
  orgName: string;
  /** "Become a client" links here when sign-up is on. */
  applicationUrl: string | null;
}

function card(w: ReturnType<typeof wordsOf>, applicationUrl: string | null): string {
  const becomeClient = applicationUrl
    ? `<div class="m_4081bf90 mantine-Group-root" style="--group-gap:var(--mantine-spacing-md);--group-align:center;--group-justify:center;--group-wrap:wrap;margin-top:var(--mantine-spacing-md)"><a class="m_849cf0da m_b6d8b162 mantine-Text-root mantine-Anchor-root" data-size="sm" data-underline="hover" href="${escapeHtml(applicationUrl)}" style="--text-fz:var(--mantine-font-size-sm);--text-lh:var(--mantine-line-height-sm)">${escapeHtml(w.becomeClient)}</a></div>`
    : '';
  // Mantine sizes the text input's label and leaves the password input's to its default, which looks the same.
  const label = (text: string, sized = true) =>
    `<label class="m_8fdc1311 mantine-InputWrapper-label"${sized ? ' data-size="sm" style="--input-label-size:var(--mantine-font-size-sm)"' : ''}>${escapeHtml(text)}</label>`;
  return `<div class="m_e615b15f mantine-Card-root m_1b7284a3 mantine-Paper-root" data-with-border="true" style="--paper-shadow:var(--mantine-shadow-sm);--card-padding:var(--mantine-spacing-lg);margin-inline:auto;margin-top:var(--mantine-spacing-xl);max-width:calc(27.5rem * var(--mantine-scale))"><h2 class="m_8a5d1357 mantine-Title-root" data-order="2" style="--title-fw:var(--mantine-h2-font-weight);--title-lh:var(--mantine-h2-line-height);--title-fz:var(--mantine-h2-font-size);margin-bottom:var(--mantine-spacing-md)">${escapeHtml(w.title)}</h2><div class="m_89d60db1 mantine-Tabs-root" data-variant="default" data-orientation="horizontal" style="--tabs-radius:var(--mantine-radius-default);--tabs-color:var(--mantine-color-indigo-filled)"><div class="m_576c9d4 m_89d33d6d mantine-Tabs-list" data-variant="default" data-grow="true" data-orientation="horizontal" role="tablist" style="margin-bottom:var(--mantine-spacing-md)">${tab(w.tabPassword, KEY_ICON, true)}${tab(w.tabSocial, USERS_ICON, false)}</div><div class="m_b0c91715 mantine-Tabs-panel" data-orientation="horizontal" role="tabpanel"><form novalidate><div class="m_6d731127 mantine-Stack-root" style="--stack-gap:var(--mantine-spacing-md);--stack-align:stretch;--stack-justify:flex-start"><div class="m_46b77525 mantine-InputWrapper-root mantine-TextInput-root" data-size="sm">${label(w.username)}<div class="m_6c018570 mantine-Input-wrapper mantine-TextInput-wrapper" data-variant="default" data-size="sm" style="--input-height:var(--input-height-sm);--input-fz:var(--mantine-font-size-sm)"><input class="m_8fb7ebe7 mantine-Input-input mantine-TextInput-input" data-variant="default" readonly></div></div><div class="m_f61ca620 mantine-PasswordInput-root m_46b77525 mantine-InputWrapper-root">${label(w.password, false)}<div class="m_6c018570 mantine-Input-wrapper mantine-PasswordInput-wrapper" data-variant="default" data-size="sm" data-with-right-section="true"><div class="m_ccf8da4c m_8fb7ebe7 mantine-Input-input mantine-PasswordInput-input" data-variant="default"><input class="m_f2d85dd2 mantine-PasswordInput-innerInput" type="password" readonly></div><div data-position="right" class="m_82577fc2 mantine-Input-section mantine-PasswordInput-section"><button class="m_b1072d44 mantine-PasswordInput-visibilityToggle m_8d3f4000 mantine-ActionIcon-root m_87cf2631 mantine-UnstyledButton-root" data-variant="subtle" type="button" style="--ai-bg:transparent;--ai-hover:var(--mantine-color-gray-light-hover);--ai-color:var(--mantine-color-gray-light-color);--ai-bd:calc(0.0625rem * var(--mantine-scale)) solid transparent"><span class="m_8d3afb97 mantine-ActionIcon-icon">${EYE_ICON}</span></button></div></div></div><button class="m_77c9d27d mantine-Button-root m_87cf2631 mantine-UnstyledButton-root" type="button" style="--button-color:var(--mantine-color-white)"><span class="m_80f1301b mantine-Button-inner"><span class="m_811560b9 mantine-Button-label">${escapeHtml(w.submit)}</span></span></button><a class="m_849cf0da m_b6d8b162 mantine-Text-root mantine-Anchor-root" data-size="sm" data-underline="hover" href="/forgot-password" style="--text-fz:var(--mantine-font-size-sm);--text-lh:var(--mantine-line-height-sm);text-align:center">${escapeHtml(w.forgot)}</a></div></form></div></div>${becomeClient}</div>`;
}

/** The script that decides whether the shell stays and starts the console (see the top). Its hash is in the CSP. */
export const SHELL_SCRIPT =
  "(function(){var shell=document.getElementById('boot-shell');try{var saved=localStorage.getItem('language');if(shell&&(localStorage.getItem('accessToken')||(saved&&saved!==shell.getAttribute('data-lang')))){shell.remove();shell=null}}catch(e){}function start(){document.querySelectorAll('[data-after-paint]').forEach(function(el){var script=el.tagName==='SCRIPT';var made=document.createElement(script?'script':'link');if(script){made.type='module';made.src=el.getAttribute('src')}else{made.rel='modulepreload';made.href=el.getAttribute('href')}made.crossOrigin='';document.head.appendChild(made)})}if(shell){requestAnimationFrame(function(){setTimeout(start,0)})}else{start()}})();";

/** SHELL_SCRIPT's hash for the Content-Security-Policy's script-src (checked against the script by a test). */
export const SHELL_SCRIPT_HASH = "'sha256-JfUhzQQkVbRb0sQLn088ReN07dbE597+PrfzERP8sdo='";

/** The head's addition and the body's shell (followed by its script) for a guest's `/` in `language`. */
export function signInShell(language: LanguageCode, options: ShellOptions): { head: string; body: string } {
  const w = wordsOf(language);
  const shell = `<div id="boot-shell" data-lang="${language}" inert><div class="m_89ab340 mantine-AppShell-root" data-mode="fixed" style="--app-shell-transition-duration:0ms">${header(language, w, options.orgName)}<main class="m_8983817 mantine-AppShell-main">${card(w, options.applicationUrl)}</main></div></div>`;
  return { head: SHELL_STYLE, body: `${shell}<script>${SHELL_SCRIPT}</script>` };
}
