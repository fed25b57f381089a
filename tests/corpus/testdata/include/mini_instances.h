// The selftest's library header: instances made by a macro, their names built from adjacent literals.
#pragma once

#define MINI_INSTANTIATE(tname, T)                                                   \
    template [[host_name("mini_scale_" #tname)]] [[kernel]] void mini_scale<T>( \
        device T * x, constant T & a, uint i);
