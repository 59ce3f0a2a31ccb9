#----------------------------------------------------------------
# Generated CMake target import file for configuration "Release".
#----------------------------------------------------------------

# Commands may need to know the format version.
set(CMAKE_IMPORT_FILE_VERSION 1)

# Import target "mink::mink" for configuration "Release"
set_property(TARGET mink::mink APPEND PROPERTY IMPORTED_CONFIGURATIONS RELEASE)
set_target_properties(mink::mink PROPERTIES
  IMPORTED_LINK_INTERFACE_LANGUAGES_RELEASE "C"
  IMPORTED_LOCATION_RELEASE "${_IMPORT_PREFIX}/lib/libmink.a"
  )

list(APPEND _cmake_import_check_targets mink::mink )
list(APPEND _cmake_import_check_files_for_mink::mink "${_IMPORT_PREFIX}/lib/libmink.a" )

# Commands beyond this point should not need to know the version.
set(CMAKE_IMPORT_FILE_VERSION)
