"""The processes that decide computer seats' moves."""


async def test_the_deciding_processes_yield_the_cores_to_the_bot() -> None:
    """A decision runs in a process of its own, niced below the bot's priority."""
    import asyncio
    import os

    from bot.service import computer

    loop = asyncio.get_running_loop()
    pool = computer._process_pool()
    pid, niceness = await asyncio.gather(
        loop.run_in_executor(pool, computer._ready),
        loop.run_in_executor(pool, computer._niceness),
    )
    assert pid != os.getpid()
    assert niceness == min(19, os.nice(0) + computer.NICENESS)
