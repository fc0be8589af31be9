// ValuesController: the controller of the mvc comparison. A string result is
// written by MVC's string output formatter as text/plain; charset=utf-8.

using Microsoft.AspNetCore.Mvc;

namespace NetCoreMvc.Controllers;

[Route("api/[controller]")]
public class ValuesController : ControllerBase
{
    // GET api/values/5
    [HttpGet("{id}")]
    public string Get(int id)
    {
        return "value";
    }
}
