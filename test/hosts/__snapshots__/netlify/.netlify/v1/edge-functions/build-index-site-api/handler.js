function createApiHandler(site) {
  return (request) => new Response(JSON.stringify({ site, url: request.url }), { headers: { "Content-Type": "application/json" } });
}
export {
  createApiHandler
};
