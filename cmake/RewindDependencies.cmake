# Third-party libraries from Debian's packages, as imported targets (also used by rewindConfig.cmake).
include_guard(GLOBAL)
if(NOT TARGET rewind::xxhash)
  find_path(REWIND_XXHASH_INCLUDE_DIR xxhash.h REQUIRED)
  find_library(REWIND_XXHASH_LIBRARY xxhash REQUIRED)
  add_library(rewind::xxhash UNKNOWN IMPORTED)
  set_target_properties(rewind::xxhash PROPERTIES
    IMPORTED_LOCATION "${REWIND_XXHASH_LIBRARY}"
    INTERFACE_INCLUDE_DIRECTORIES "${REWIND_XXHASH_INCLUDE_DIR}")
endif()
if(NOT TARGET rewind::enet)
  find_path(REWIND_ENET_INCLUDE_DIR enet/enet.h)
  find_library(REWIND_ENET_LIBRARY enet)
  if(REWIND_ENET_INCLUDE_DIR AND REWIND_ENET_LIBRARY)
    add_library(rewind::enet UNKNOWN IMPORTED)
    set_target_properties(rewind::enet PROPERTIES
      IMPORTED_LOCATION "${REWIND_ENET_LIBRARY}"
      INTERFACE_INCLUDE_DIRECTORIES "${REWIND_ENET_INCLUDE_DIR}")
  endif()
endif()
if(NOT TARGET rewind::sodium)
  # libsodium (Ed25519 connect tokens in rewind_session), found through its pkg-config file.
  find_package(PkgConfig REQUIRED)
  pkg_check_modules(REWIND_SODIUM REQUIRED IMPORTED_TARGET libsodium)
  add_library(rewind::sodium INTERFACE IMPORTED)
  set_target_properties(rewind::sodium PROPERTIES INTERFACE_LINK_LIBRARIES PkgConfig::REWIND_SODIUM)
endif()
if(NOT TARGET rewind::beast)
  # Boost.Beast and Boost.Asio (header-only, Debian's libboost-dev): the WebSocket transport in rewind_transport.
  find_path(REWIND_BOOST_INCLUDE_DIR boost/beast/websocket.hpp REQUIRED)
  find_package(Threads REQUIRED)
  add_library(rewind::beast INTERFACE IMPORTED)
  set_target_properties(rewind::beast PROPERTIES
    INTERFACE_INCLUDE_DIRECTORIES "${REWIND_BOOST_INCLUDE_DIR}"
    INTERFACE_COMPILE_DEFINITIONS "BOOST_ASIO_NO_DEPRECATED;BOOST_BEAST_USE_STD_STRING_VIEW"
    INTERFACE_LINK_LIBRARIES Threads::Threads)
endif()
