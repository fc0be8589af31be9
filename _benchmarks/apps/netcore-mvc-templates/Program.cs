// netcore-mvc-templates: the templates comparison on ASP.NET Core MVC with
// Razor views. HomeController.Index sets the title in ViewData and returns
// Views/Home/Index.cshtml, which Views/_ViewStart.cshtml wraps in
// Views/Shared/_Layout.cshtml. The views are compiled at build time.
//
// Logging providers are cleared, so nothing is logged during load; the two
// readiness lines are printed here in the words every app of the suite uses.
// The address is --urls / ASPNETCORE_URLS when given, else
// http://127.0.0.1:$PORT (5000).
//
// A third line, "Runtime: ...", states the GC mode (server or workstation,
// concurrent or not), the processor count the runtime sees (the CPUs it is
// pinned to) and the environment; the runner records it in results.json.

using System.Runtime;

// Always the Production environment, whatever ASPNETCORE_ENVIRONMENT says:
// no developer exception page, no development-only configuration.
var builder = WebApplication.CreateBuilder(new WebApplicationOptions
{
    Args = args,
    EnvironmentName = Environments.Production,
});
builder.Logging.ClearProviders();
if (string.IsNullOrEmpty(builder.Configuration["urls"]))
{
    var port = Environment.GetEnvironmentVariable("PORT") ?? "5000";
    builder.WebHost.UseUrls($"http://127.0.0.1:{port}");
}
builder.Services.AddControllersWithViews();

var app = builder.Build();

app.MapControllerRoute(name: "default", pattern: "{controller=Home}/{action=Index}/{id?}");

app.Lifetime.ApplicationStarted.Register(() =>
{
    foreach (var address in app.Urls)
    {
        Console.WriteLine($"Now listening on: {address}");
    }
    Console.WriteLine("Application started. Press CTRL+C to shut down.");
    // The runtime settings that matter for the measurement, in the one
    // extra line the suite allows after the readiness lines.
    var gc = GCSettings.IsServerGC ? "server" : "workstation";
    var concurrent = GCSettings.LatencyMode == GCLatencyMode.Batch ? "non-concurrent" : "concurrent";
    Console.WriteLine($"Runtime: .NET {Environment.Version}; GC: {gc}, {concurrent}; processors: {Environment.ProcessorCount}; environment: {app.Environment.EnvironmentName}");
});

app.Run();
