// Light or dark: the player's choice, or by default the system's
// (`prefers-color-scheme`). The page shows it as `data-theme` on the root
// element, which the style sheet's dark colours follow.

/** What the player may choose (stored in the prefs as `theme`). */
export const THEMES = ['system', 'light', 'dark'];

/** The theme shown: the player's choice, or the system's when they left it to the system. */
export function shownTheme(choice, systemDark) {
  if (choice === 'light' || choice === 'dark') return choice;
  return systemDark ? 'dark' : 'light';
}
