// HomeController: the controller of the templates comparison. It derives
// from Controller (which derives from ControllerBase) because views need
// Controller's View() and ViewData.

using Microsoft.AspNetCore.Mvc;

namespace NetCoreMvcTemplates.Controllers;

public class HomeController : Controller
{
    // GET /
    public IActionResult Index()
    {
        ViewData["Title"] = "Home Page";
        return View();
    }
}
