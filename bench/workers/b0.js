// B0: the bare runtime. A fixed JSON body, no routing, no middleware, no storage.
const BODY = JSON.stringify({ success: true, data: { ok: true }, message: 'B0' });

export default {
  fetch() {
    return new Response(BODY, { headers: { 'Content-Type': 'application/json' } });
  },
};
