// The websocket to the server: JSON frames in and out, request ids, and
// coming back by itself after a drop.
//
// The connection knows nothing of the game. It numbers requests (`id`),
// remembers what each one asked, and hands every incoming message to
// `onMessage` together with the request it answers (if it carries the id of
// one). When the socket closes it reports "reconnecting" and tries again,
// waiting a little longer each time (up to MAX_DELAY_MS); what to do once
// it is back (sign in again, rejoin the room) is the caller's business.
// `stop` closes it for good (the page is being left), until `start` again.

const DELAYS_MS = [250, 500, 1000, 2000, 4000];
const MAX_DELAY_MS = 5000;

/** ws://host/ws or wss://host/ws for the page's own server. */
export function serverUrl(location) {
  const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
  return `${scheme}//${location.host}/ws`;
}

export class Connection {
  /**
   * @param {string} url the websocket endpoint
   * @param {{onMessage: (message, request) => void, onStatus: (status) => void}} handlers
   *   status is "online" or "reconnecting"
   */
  constructor(url, { onMessage, onStatus }) {
    this.url = url;
    this.onMessage = onMessage;
    this.onStatus = onStatus;
    this.socket = null;
    this.nextId = 1;
    this.pending = new Map();
    this.attempts = 0;
    this.timer = null;
  }

  /** Open the socket (again). */
  start() {
    clearTimeout(this.timer);
    this.timer = null;
    const socket = new WebSocket(this.url);
    this.socket = socket;
    socket.addEventListener('open', () => {
      this.attempts = 0;
      this.onStatus('online');
    });
    socket.addEventListener('message', (event) => this.received(event.data));
    socket.addEventListener('close', () => this.closed(socket));
  }

  /** Whether requests can be sent now. */
  get isOpen() {
    return this.socket !== null && this.socket.readyState === WebSocket.OPEN;
  }

  /** Send a request with a fresh id; returns the id, or null when the socket is not open. */
  send(message) {
    if (!this.isOpen) return null;
    const id = this.nextId;
    this.nextId += 1;
    this.pending.set(id, message);
    this.socket.send(JSON.stringify({ ...message, id }));
    return id;
  }

  /**
   * Close the socket and stay closed until `start` is called again. A page
   * that is left must not stay connected: the browser may keep it, socket
   * and all, in its back/forward cache, and the server would go on counting
   * a player who has gone as present.
   */
  stop() {
    clearTimeout(this.timer);
    this.timer = null;
    const old = this.socket;
    this.socket = null;
    if (old !== null) old.close(1000);
    this.pending.clear();
    this.onStatus('reconnecting');
  }

  /** Drop the socket and open a fresh one at once (signing in as someone else needs a new connection). */
  restart() {
    this.stop();
    this.start();
  }

  received(data) {
    let message;
    try {
      message = JSON.parse(data);
    } catch {
      return;
    }
    if (message === null || typeof message !== 'object' || typeof message.type !== 'string') return;
    let request = null;
    if (message.id !== undefined && this.pending.has(message.id)) {
      request = this.pending.get(message.id);
      this.pending.delete(message.id);
    }
    this.onMessage(message, request);
  }

  closed(socket) {
    if (socket !== this.socket) return; // an old socket, already replaced
    this.socket = null;
    this.pending.clear();
    this.onStatus('reconnecting');
    const delay = DELAYS_MS[this.attempts] ?? MAX_DELAY_MS;
    this.attempts += 1;
    this.timer = setTimeout(() => this.start(), delay);
  }
}
