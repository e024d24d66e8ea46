// The page: the header, and one screen at a time (sign-in, lobby, room,
// games, replay, leaderboard, profile, moderation), chosen from the state. Moving to another screen puts the
// keyboard focus on its heading, so a screen reader announces where it is.

import { h, show } from '../dom.js';
import { createAccountView } from './account.js';
import { createGamesView } from './games.js';
import { createHeader } from './header.js';
import { createLobbyView } from './lobby.js';
import { createModerationView } from './moderation.js';
import { createPlayersView } from './players.js';
import { createProfileView } from './profile.js';
import { createReplayView } from './replay.js';
import { createRoomView } from './room.js';
import { createSignInView } from './signin.js';
import { createTournamentsView, createTournamentView } from './tournaments.js';
import { createTrainerView } from './trainer.js';

/** Which screen a state shows. */
function screenOf(state) {
  if (state.me === null) return 'signin';
  return state.route.name;
}

export function createApp(root, intents) {
  const header = createHeader(intents);
  const screens = {
    signin: createSignInView(intents),
    lobby: createLobbyView(intents),
    room: createRoomView(intents),
    games: createGamesView(intents),
    replay: createReplayView(intents),
    players: createPlayersView(intents),
    profile: createProfileView(intents),
    account: createAccountView(intents),
    moderation: createModerationView(intents),
    tournaments: createTournamentsView(intents),
    tournament: createTournamentView(intents),
    puzzles: createTrainerView(intents),
  };
  const main = h('main', { id: 'main' }, Object.values(screens).map((screen) => screen.element));
  root.replaceChildren(header.element, header.notice, main);
  let shown = null;

  return {
    render(state) {
      header.update(state);
      const name = screenOf(state);
      for (const [key, screen] of Object.entries(screens)) show(screen.element, key === name);
      screens[name].update(state);
      if (name !== shown) {
        const first = shown === null;
        shown = name;
        if (!first || name === 'signin') screens[name].focus();
      }
    },
  };
}
