export default (request) => new Response(JSON.stringify({ standIn: true, url: request.url }), { headers: { "Content-Type": "application/json" } });
