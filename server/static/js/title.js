// The page's title: the name of the game, and "(Your move)" in front of it
// while the player is to move, so that a tab in the background says so.

/** Whether the signed-in player is to move (or to decide the opening) in the room on screen. */
export function myMove(state) {
  const room = state.room;
  if (room === null || room.you === 'spectator') return false;
  if (room.status === 'playing') return room.toMove === room.you;
  return room.status === 'opening' && room.opening?.decider === state.me?.name;
}

/** "(Your move) Gomoku" while I am to move, else "Gomoku" (in the page's language). */
export function pageTitle(state, t) {
  return myMove(state) ? t('title.yourMove', { name: t('app.name') }) : t('app.name');
}
